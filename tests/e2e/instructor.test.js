// The instructor's overview (web/instructor.html) against the real clamsim-server with an
// accounts file made by clamsim-accounts: the page asks for a login, a wrong password shows
// the server's message, the right one brings the overview back; a trainee's page is open,
// the overview lists that session with the task's live score, the task times out, and the
// finished report appears with a link to its JSON.
// Needs CLAMSIM_SERVER and Debian's Chromium, like client.test.js; skips otherwise.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import {
  skipReason, freePort, waitFor, ServerProcess, launchBrowser, VIRTUAL_JOYSTICK, ARTIFACTS,
  writeShortTaskScenario, createAccount,
} from './harness.js';

const PASSWORD = 'e2e instructor password';

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
    createAccount(accounts, 'ada', PASSWORD);
    server = new ServerProcess({ httpPort: await freePort(), corbaPort: await freePort(), logName: 'server-instructor.log',
      extraArgs: ['--scenarios-dir', scenarios, '--world', 'short_task', '--report-dir', reports,
        '--accounts', accounts] });
    process.once('exit', () => server.killNow());
    await server.start();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 760 } });
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
    await waitFor('the trainee in the overview, task running', async () =>
      (await row.count()) === 1 && (await row.getAttribute('data-state')) === 'running', { timeoutMs: 10000 });
    const cells = await row.locator('td').allTextContents();
    t.diagnostic(`live: ${cells.join(' | ')}`);
    assert.match(cells[0], /^#\d+$/);
    assert.equal(cells[1], '–', 'no name given');
    assert.equal(cells[2], 't250 · short_task');
    assert.match(cells[4], /^0:0\d \/ 0:04$/);
    assert.equal(cells[5], '0 / 3');
    assert.equal(cells[11], '100');
    await instructor.screenshot({ path: path.join(ARTIFACTS, 'instructor-live.png') });

    // the task times out at 6 s: the live row says so and the report is listed
    await waitFor('the live row to say "timed out"', async () =>
      (await row.getAttribute('data-state')) === 'timed out', { timeoutMs: 15000, everyMs: 200 });
    assert.equal((await row.locator('td.points').textContent()), '0', 'no time points left at the limit');
    const report = instructor.locator('#reports tbody tr').first();
    await waitFor('the finished report in the overview', async () => (await report.count()) === 1,
      { timeoutMs: 10000, everyMs: 200 });
    const rcells = await report.locator('td').allTextContents();
    t.diagnostic(`report: ${rcells.join(' | ')}`);
    assert.equal(rcells[3], 'timed out');
    assert.match(rcells[4], /^0:0[5-7]$/);
    assert.equal(rcells[5], '0 / 3');
    const href = await report.locator('a').getAttribute('href');
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
    assert.equal(await instructor.locator('#reports tbody tr').count(), 1);
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
