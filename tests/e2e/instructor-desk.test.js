// The instructor station (docs/instructor.md): a trainee's page and a logged-in instructor's page
// on the real clamsim-server. The instructor takes the controls and raises the boom while the
// trainee holds boom-down (ignored), hands back, sends a message that appears on the trainee's
// screen, injects a burst hose on the boom (the boom sinks under its load) and clears it; the
// task's report (written when the server stops) lists all of it in its timeline. Screenshots of
// both pages are kept as artifacts. Needs CLAMSIM_SERVER and Debian's Chromium, like
// client.test.js; skips otherwise.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  skipReason, freePort, waitFor, ServerProcess, launchBrowser, ARTIFACTS, createAccount, sleep, simSeconds,
} from './harness.js';

const PASSWORD = 'e2e desk password';
const skip = skipReason();
if (skip) {
  console.log(`e2e skipped: ${skip}`);
  test('the instructor desk against clamsim-server', { skip }, () => {});
}

describe('the instructor desk', { skip: skip ?? false }, () => {
  let server, browser, trainee, instructor;
  const errors = [];
  const accounts = path.join(ARTIFACTS, 'state-desk', 'accounts.json');
  const reports = path.join(ARTIFACTS, 'reports-desk');
  const boom = (page) => page.evaluate(() => window.clamsim.frame?.values.boom_deg ?? NaN);
  const shot = (page, name) => page.screenshot({ path: path.join(ARTIFACTS, name) });

  before(async () => {
    createAccount(accounts, 'ann', PASSWORD);
    fs.rmSync(reports, { recursive: true, force: true });
    server = new ServerProcess({ httpPort: await freePort(), corbaPort: await freePort(), logName: 'server-desk.log',
      extraArgs: ['--accounts', accounts, '--report-dir', reports] });
    process.once('exit', () => server.killNow());
    await server.start();
    browser = await launchBrowser();
    trainee = await (await browser.newContext({ viewport: { width: 1100, height: 700 } })).newPage();
    instructor = await (await browser.newContext({ viewport: { width: 1100, height: 700 } })).newPage();
    for (const [name, page] of [['trainee', trainee], ['instructor', instructor]]) {
      page.on('pageerror', (e) => errors.push(`${name} pageerror: ${e.message}`));
    }
    await trainee.goto(server.url, { waitUntil: 'load', timeout: 20000 });
    await waitFor('the trainee connected', () => trainee.evaluate(() => window.clamsim.frame !== null),
      { timeoutMs: 15000 });
    const id = await trainee.evaluate(() => window.clamsim.session);
    await instructor.goto(`${server.url}login.html?next=/instructor.html`, { waitUntil: 'load', timeout: 20000 });
    await instructor.fill('#name', 'ann');
    await instructor.fill('#password', PASSWORD);
    await instructor.click('#submit');
    await waitFor('the overview', async () => new URL(instructor.url()).pathname === '/instructor.html',
      { timeoutMs: 10000 });
    await instructor.goto(`${server.url}?observe=${id}`, { waitUntil: 'load', timeout: 20000 });
    await waitFor('the observer connected', () => instructor.evaluate(() => window.clamsim.frame !== null),
      { timeoutMs: 15000 });
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
  });

  test('the instructor takes the controls, raises the boom against the trainee\u2019s stick, hands back', async () => {
    assert.equal(await instructor.isVisible('#desk'), true, 'the desk panel on the watched tab');
    assert.match(await instructor.textContent('#desk-status'), /The trainee drives/);
    // the trainee holds boom down
    await trainee.bringToFront();
    await trainee.keyboard.down('ArrowDown');
    await waitFor('the trainee lowering the boom', async () =>
      (await trainee.evaluate(() => window.clamsim.drivingVolts[1])) < 0, { timeoutMs: 5000 });
    const b0 = await boom(trainee);
    await waitFor('the boom falling', async () => (await boom(trainee)) < b0 - 0.3, { timeoutMs: 15000 });

    await instructor.bringToFront();
    await instructor.click('#desk-take');
    await waitFor('the trainee told who drives', () => trainee.evaluate(() => {
      const b = document.getElementById('control-banner');
      return !b.hidden && b.textContent === 'Instructor ann is driving: your stick is ignored';
    }), { timeoutMs: 10000 });
    await waitFor('the desk saying the instructor drives', async () =>
      /^You drive \(exclusive control\)/.test(await instructor.textContent('#desk-status')), { timeoutMs: 5000 });
    assert.match(await instructor.textContent('#observer-banner'), /^Driving .* - your keys and joystick move it$/);
    // the trainee still holds boom down (the key goes on being sent), the instructor raises it
    await trainee.keyboard.down('ArrowDown');
    await sleep(300);   // the instructor's controls are at neutral once: the interlock opens
    await instructor.keyboard.down('ArrowUp');
    try {
      const low = await boom(trainee);
      await waitFor('the boom rising under the instructor\u2019s key', async () => (await boom(trainee)) > low + 0.5,
        { timeoutMs: 15000 });
      assert.ok((await trainee.evaluate(() => window.clamsim.drivingVolts[1])) < 0,
        'the trainee was sending boom down all along');
      assert.ok((await instructor.evaluate(() => window.clamsim.observedVolts[1])) > 0,
        'the volts that drove the frames are the instructor\u2019s');
      await shot(trainee, 'desk-trainee-instructor-driving.png');
      await shot(instructor, 'desk-instructor-driving.png');
    } finally {
      await instructor.keyboard.up('ArrowUp');
    }
    await instructor.click('#desk-release');
    await waitFor('the banner gone from the trainee\u2019s screen', () => trainee.evaluate(
      () => document.getElementById('control-banner').hidden), { timeoutMs: 10000 });
    const high = await boom(trainee);
    await waitFor('the trainee\u2019s boom-down acting again', async () => (await boom(trainee)) < high - 0.3,
      { timeoutMs: 15000 });
    await trainee.keyboard.up('ArrowDown');
  });

  test('a message from the instructor appears on the trainee\u2019s screen', async () => {
    await instructor.bringToFront();
    await instructor.fill('#desk-message', 'Lower the boom slowly, watch the rack');
    await instructor.click('#desk-message-form button[type="submit"]');
    await waitFor('the message on the trainee\u2019s screen', () => trainee.evaluate(() => {
      const m = document.getElementById('instructor-message');
      return !m.hidden && m.textContent === 'ann: Lower the boom slowly, watch the rack';
    }), { timeoutMs: 10000 });
    await shot(trainee, 'desk-trainee-message.png');
  });

  test('a burst hose on the boom, injected from the desk, lets the boom sink; clearing it stops it', async () => {
    await instructor.bringToFront();
    await instructor.selectOption('#desk-fault-name', 'burst_hose');
    await instructor.selectOption('#desk-fault-param-function', 'boom');
    const b0 = await boom(trainee);
    await instructor.click('#desk-fault-inject');
    await waitFor('the fault listed as active', () => instructor.evaluate(() =>
      [...document.querySelectorAll('#desk-faults-active li')].some((li) => li.dataset.name === 'burst_hose')),
    { timeoutMs: 10000 });
    await waitFor('the boom sinking with the stick at neutral', async () => (await boom(trainee)) < b0 - 0.3,
      { timeoutMs: 30000 });
    assert.equal(await trainee.evaluate(() => window.clamsim.drivingVolts[1]), 0, 'nobody touched the boom');
    await shot(instructor, 'desk-instructor-fault.png');
    await instructor.click('#desk-faults-active li[data-name="burst_hose"] button');
    await waitFor('no fault active', () => instructor.evaluate(() =>
      document.querySelectorAll('#desk-faults-active li[data-name]').length === 0), { timeoutMs: 10000 });
    // the boom's reading over 2 s of simulated time, from 0.5 s after the mend (the hose's
    // last oil out)
    await simSeconds(trainee, 0.5, 'after the hose is mended');
    const b1 = await boom(trainee);
    await simSeconds(trainee, 2, 'with the hose mended');
    assert.ok(Math.abs((await boom(trainee)) - b1) < 0.05, 'the boom holds again once the hose is mended');
  });

  test('the report\u2019s timeline lists the hand-overs, the message and the fault', async () => {
    assert.deepEqual(errors, []);
    await server.stop('SIGINT');   // the task under way is reported "interrupted"
    const files = fs.readdirSync(reports).filter((f) => f.startsWith('report-'));
    assert.equal(files.length, 1, `one report: ${files}`);
    const report = JSON.parse(fs.readFileSync(path.join(reports, files[0]), 'utf8'));
    assert.equal(report.outcome, 'interrupted');
    const notes = report.timeline.filter((e) => e.by !== undefined).map((e) => `${e.kind}:${e.detail}:${e.by}`);
    assert.deepEqual(notes.filter((n) => n.startsWith('control')), ['control:exclusive:ann', 'control:trainee:ann']);
    assert.ok(notes.includes('message:Lower the boom slowly, watch the rack:ann'), notes.join('\n'));
    assert.ok(notes.some((n) => n.startsWith('fault:') && n.includes('boom')), notes.join('\n'));
    assert.ok(notes.some((n) => n.startsWith('fault_cleared:')), notes.join('\n'));
  });
});
