// The instructor's overview (web/instructor.html) against the real clamsim-server with an
// accounts file made by clamsim-accounts: the page asks for a login, a wrong password shows
// the server's message, the right one brings the overview back; a trainee's page is open,
// the overview lists that session with the task's live score, the task times out, and the
// finished report appears with links to its page and its JSON; the report page reads as a
// report (local times, penalties, timeline, versions); the list filters by trainee and by
// local day, and exports what it shows as CSV.
// Needs CLAMSIM_SERVER and Debian's Chromium, like client.test.js; skips otherwise.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  skipReason, freePort, waitFor, ServerProcess, launchBrowser, VIRTUAL_JOYSTICK, ARTIFACTS,
  writeShortTaskScenario, createAccount, startTaskClock,
} from './harness.js';

const PASSWORD = 'e2e instructor password';

// Two earlier reports in the folder, as the server writes them. Berlin is UTC+1 in
// November: Ada's task ended on the 22nd local time, the 21st in UTC.
function fixtureReport(trainee, ended, penalties) {
  return {
    schema: 'clamsim-report/1', session: 'session 9 (t250, short_task)', trainee, task: 'Clear the trash rack',
    versions: { server: '0.0.0-fixture', model: { name: 't250', sha256: 'c'.repeat(64) },
      scenario: { name: 'short_task', sha256: 'd'.repeat(64) } },
    started_utc: '2026-11-20T22:25:00Z', ended_utc: ended, outcome: 'completed',
    elapsed_s: 307.5, optimum_s: 300.0, limit_s: 450.0, delivered: 3, required: 3,
    loads: [{ id: 0, name: 'log1', delivered: true }], time_points: 95.0,
    penalties: {
      rack_gate_hit: { count: penalties, points_each: 10.0, points: 10.0 * penalties },
      structure_hit: { count: 0, points_each: 5.0, points: 0.0 },
      slack_cable: { count: 0, points_each: 5.0, points: 0.0 },
      overload: { count: 0, points_each: 15.0, points: 0.0 },
      dropped_load: { count: 0, points_each: 10.0, points: 0.0 },
    },
    penalty_points: 10.0 * penalties, total: 95.0 - 10.0 * penalties,
    timeline: Array.from({ length: penalties }, (_, i) => (
      { sim_time_s: 41.25 + i, task_time_s: 41.2 + i, kind: 'rack_gate_hit', solid: 'trash rack', points: 10.0 })),
  };
}
const FIXTURES = {
  'report-9-20261120T223000Z.json': fixtureReport('Grace Hopper', '2026-11-20T22:30:00Z', 2),
  'report-8-20261121T233000Z.json': fixtureReport('Ada Lovelace', '2026-11-21T23:30:00Z', 0),
};

const skip = skipReason();
if (skip) {
  console.log(`e2e skipped: ${skip}`);
  test('instructor overview against clamsim-server', { skip }, () => {});
}

describe('instructor overview', { skip: skip ?? false }, () => {
  let server, browser, trainee, instructor;
  const consoleErrors = [];
  const scenarios = path.join(ARTIFACTS, 'scenarios-instructor');
  const reports = path.join(ARTIFACTS, 'reports-instructor');
  const accounts = path.join(ARTIFACTS, 'state-instructor', 'accounts.json');
  // the browser logs every 401 (the page's first look, the wrong password) as a console error
  const expected401 = [];

  before(async () => {
    writeShortTaskScenario(scenarios, 4);  // times out at 6 s
    rmSync(reports, { recursive: true, force: true });
    mkdirSync(reports, { recursive: true });
    for (const [name, body] of Object.entries(FIXTURES)) writeFileSync(path.join(reports, name), JSON.stringify(body));
    createAccount(accounts, 'ada', PASSWORD);
    server = new ServerProcess({ httpPort: await freePort(), corbaPort: await freePort(), logName: 'server-instructor.log',
      extraArgs: ['--scenarios-dir', scenarios, '--world', 'short_task', '--report-dir', reports,
        '--accounts', accounts] });
    process.once('exit', () => server.killNow());
    await server.start();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 760 }, timezoneId: 'Europe/Berlin' });
    await context.addInitScript(VIRTUAL_JOYSTICK);
    for (const name of ['trainee', 'instructor']) {
      const page = await context.newPage();
      page.on('pageerror', (e) => consoleErrors.push(`${name} pageerror: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() !== 'error') return;
        if (name === 'instructor' && /status of 401/.test(m.text())) expected401.push(m.location().url);
        else consoleErrors.push(`${name}: ${m.text()}`);
      });
      if (name === 'trainee') trainee = page; else instructor = page;
    }
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
  });

  test('asks for a login; a wrong password is refused, the right one opens the overview', async () => {
    await instructor.goto(`${server.url}instructor.html`, { waitUntil: 'load', timeout: 20000 });
    await waitFor('the login page', async () => new URL(instructor.url()).pathname === '/login.html',
      { timeoutMs: 10000 });
    assert.equal(new URL(instructor.url()).searchParams.get('next'), '/instructor.html');
    await instructor.screenshot({ path: path.join(ARTIFACTS, 'login.png') });

    await instructor.fill('#name', 'ada');
    await instructor.fill('#password', 'not the password');
    await instructor.click('#submit');
    await waitFor('the refusal', async () => instructor.isVisible('#message'), { timeoutMs: 10000 });
    assert.equal(await instructor.textContent('#message'), 'wrong name or password');
    assert.equal(new URL(instructor.url()).pathname, '/login.html');

    await instructor.fill('#password', PASSWORD);
    await instructor.click('#submit');
    await waitFor('the overview again', async () => new URL(instructor.url()).pathname === '/instructor.html',
      { timeoutMs: 10000 });
    await waitFor('who is logged in', async () => instructor.isVisible('#who'), { timeoutMs: 10000 });
    assert.equal(await instructor.textContent('#who'), 'logged in as ada');
    assert.ok(await instructor.isVisible('#logout'));
    assert.ok(expected401.every((u) => /\/api\/(me|sessions|reports|login)$/.test(new URL(u).pathname)),
      `only the API answered 401: ${expected401.join(', ')}`);
  });

  test('lists the trainee live, then the finished task with its report', async (t) => {
    await instructor.goto(`${server.url}instructor.html`, { waitUntil: 'load', timeout: 20000 });
    await waitFor('the overview to reach the server', async () =>
      (await instructor.getAttribute('#link-state', 'data-state')) === 'ok', { timeoutMs: 10000 });
    assert.equal(await instructor.locator('#live tbody tr').count(), 0);
    assert.ok(await instructor.isVisible('#live-empty'));

    await trainee.goto(server.url, { waitUntil: 'load', timeout: 20000 });
    const row = instructor.locator('#live tbody tr').first();
    await waitFor('the trainee in the overview, waiting for a first control', async () =>
      (await row.count()) === 1 && (await row.getAttribute('data-state')) === 'waiting', { timeoutMs: 10000 });
    await waitFor('the trainee page connected', () => trainee.evaluate(() => window.clamsim?.frame !== null));
    await startTaskClock(trainee);
    await waitFor('the trainee in the overview, task running', async () =>
      (await row.count()) === 1 && (await row.getAttribute('data-state')) === 'running', { timeoutMs: 10000 });
    const cells = await row.locator('td').allTextContents();
    t.diagnostic(`live: ${cells.join(' | ')}`);
    assert.match(cells[0], /^#\d+$/);
    assert.equal(cells[1], '–', 'no name given');
    assert.equal(cells[2], 't250 · short_task');
    assert.match(cells[4], /^0:0\d \/ 0:04$/);
    assert.equal(cells[5], '0 / 3');
    assert.equal(cells[13], '100');
    await instructor.screenshot({ path: path.join(ARTIFACTS, 'instructor-live.png') });

    // the task times out at 6 s: the live row says so and the report is listed
    await waitFor('the live row to say "timed out"', async () =>
      (await row.getAttribute('data-state')) === 'timed out', { timeoutMs: 15000, everyMs: 200 });
    assert.equal((await row.locator('td.points').textContent()), '0', 'no time points left at the limit');
    const report = instructor.locator('#reports tbody tr').first();
    await waitFor('the finished report in the overview, newest first', async () =>
      (await instructor.locator('#reports tbody tr').count()) === 3,
      { timeoutMs: 10000, everyMs: 200 });
    const rcells = await report.locator('td').allTextContents();
    t.diagnostic(`report: ${rcells.join(' | ')}`);
    assert.equal(rcells[3], 'timed out');
    assert.match(rcells[4], /^0:0[5-7]$/);
    assert.equal(rcells[5], '0 / 3');
    assert.match(rcells[0], /^\d{4}-\d\d-\d\d \d\d:\d\d$/, 'local time, to the minute');
    assert.match(await instructor.textContent('#ended-header'), /^Ended \(local time, UTC\+1\)$/);
    const href = await report.locator('a.json').getAttribute('href');
    const res = await instructor.request.get(new URL(href, `${server.url}instructor.html`).href);
    assert.equal(res.status(), 200);
    const json = await res.json();
    assert.equal(json.schema, 'clamsim-report/1');
    assert.equal(json.outcome, 'timed out');
    await instructor.screenshot({ path: path.join(ARTIFACTS, 'instructor-report.png') });

    // the trainee leaves: the live table empties, the report stays
    await trainee.close();
    await waitFor('the live table to empty', async () => (await instructor.locator('#live tbody tr').count()) === 0,
      { timeoutMs: 10000, everyMs: 200 });
    assert.equal(await instructor.locator('#reports tbody tr').count(), 3);
    assert.deepEqual(consoleErrors, []);
  });

  test('a report reads as a report: who, outcome, local times, penalties, timeline, versions', async (t) => {
    const page = await instructor.context().newPage();
    page.on('pageerror', (e) => consoleErrors.push(`report pageerror: ${e.message}`));
    // the task that just timed out, from its "Open" link
    const open = await instructor.locator('#reports tbody tr').first().locator('a.open').getAttribute('href');
    await page.goto(new URL(open, `${server.url}instructor.html`).href, { waitUntil: 'load', timeout: 20000 });
    await waitFor('the report page', async () => (await page.getAttribute('#report', 'data-state')) === 'ok',
      { timeoutMs: 10000 });
    assert.equal(await page.textContent('#r-trainee'), 'No name given');
    assert.equal(await page.textContent('#r-outcome'), 'timed out');
    const versions = await page.locator('#r-versions dd').allTextContents();
    t.diagnostic(`versions: ${versions.join(' | ')}`);
    assert.match(versions[0], /^\d+\.\d+\.\d+/, 'the server build version');
    assert.match(versions[1], /^t250 · sha256 [0-9a-f]{12}…$/);
    assert.match(versions[2], /^short_task · sha256 [0-9a-f]{12}…$/);
    const facts = await page.locator('#r-facts dd').allTextContents();
    assert.match(facts[2], /^0:0\d(\.\d)? \(optimum 0:04, limit 0:06\)$/);

    // an earlier report with penalties: local times, the timeline, the points
    await page.goto(`${server.url}report.html?name=report-9-20261120T223000Z.json`, { waitUntil: 'load' });
    await waitFor('the fixture report', async () => (await page.textContent('#r-trainee')) === 'Grace Hopper',
      { timeoutMs: 10000 });
    assert.deepEqual((await page.locator('#r-facts dd').allTextContents()).slice(0, 2),
      ['2026-11-20 23:25', '2026-11-20 23:30'], 'Berlin local time');
    assert.deepEqual(await page.locator('#r-timeline tbody tr').first().locator('td').allTextContents(),
      ['0:41.2', 'Hit the trash rack or gate: trash rack', '10']);
    // a row per kind the report lists (the server's kinds when it was written)
    assert.equal(await page.locator('#r-penalties tbody tr').count(),
      Object.keys(FIXTURES['report-9-20261120T223000Z.json'].penalties).length);
    await page.screenshot({ path: path.join(ARTIFACTS, 'instructor-report-page.png'), fullPage: true });

    await page.goto(`${server.url}report.html?name=report-1-20001010T101010Z.json`, { waitUntil: 'load' });
    await waitFor('the refusal', async () => (await page.getAttribute('#report', 'data-state')) === 'failed',
      { timeoutMs: 10000 });
    assert.match(await page.textContent('#report-message'), /no report named 'report-1-20001010T101010Z.json'/);
    await page.close();
  });

  test('the list filters by trainee and local day and exports what it shows as CSV', async () => {
    const trainees = async () => instructor.locator('#reports tbody td.trainee').allTextContents();
    await instructor.fill('#filter-trainee', 'grace');
    await waitFor('only Grace', async () => (await trainees()).join() === 'Grace Hopper', { timeoutMs: 10000 });
    assert.equal(await instructor.textContent('#reports-count'), '(1 matching)');
    await instructor.fill('#filter-trainee', 'nobody');
    await waitFor('nobody matches', async () => (await trainees()).length === 0, { timeoutMs: 10000 });
    assert.equal(await instructor.textContent('#reports-empty'), 'No finished task matches the filter.');
    assert.ok(await instructor.isVisible('#reports-empty'));

    // the 22nd in Berlin is Ada's task (ended 00:30 local, the 21st in UTC)
    await instructor.fill('#filter-trainee', '');
    await instructor.fill('#filter-from', '2026-11-22');
    await instructor.fill('#filter-to', '2026-11-22');
    await waitFor('only Ada', async () => (await trainees()).join() === 'Ada Lovelace', { timeoutMs: 10000 });
    assert.equal(await instructor.locator('#reports tbody tr td').first().textContent(), '2026-11-22 00:30');
    await instructor.screenshot({ path: path.join(ARTIFACTS, 'instructor-filter.png') });

    const href = await instructor.getAttribute('#export-csv', 'href');
    assert.match(href, /^api\/reports\.csv\?from=2026-11-21T23%3A00%3A00Z&to=2026-11-22T23%3A00%3A00Z$/);
    const res = await instructor.request.get(new URL(href, `${server.url}instructor.html`).href);
    assert.equal(res.status(), 200);
    assert.match(res.headers()['content-type'], /^text\/csv/);
    assert.match(res.headers()['content-disposition'], /attachment; filename="clamsim-reports.csv"/);
    const lines = (await res.text()).trimEnd().split('\r\n');
    assert.equal(lines[0], 'ended_utc,trainee,task,session,outcome,elapsed_s,total,delivered,required,report');
    assert.deepEqual(lines.slice(1), ['"2026-11-21T23:30:00Z","Ada Lovelace","Clear the trash rack",'
      + '"session 9 (t250, short_task)","completed",307.50,95.0,3,3,"report-8-20261121T233000Z.json"']);

    await instructor.click('#filter-clear');
    await waitFor('all three again', async () => (await trainees()).length === 3, { timeoutMs: 10000 });
    assert.deepEqual(consoleErrors, []);
  });

  test('"Log out" ends the login: the page asks for it again', async () => {
    await instructor.click('#logout');
    await waitFor('the login page after logging out', async () =>
      new URL(instructor.url()).pathname === '/login.html', { timeoutMs: 10000 });
    const res = await instructor.request.get(`${server.url}api/sessions`);
    assert.equal(res.status(), 401);
  });
});
