// Watch (docs/instructor.md "Watching a trainee"): a trainee's page and a logged-in instructor's
// page against the real clamsim-server with an accounts file. The instructor clicks "Watch" on the
// trainee's live session; the page that opens shows the trainee's frames (the same seq as the
// trainee's page), the trainee's inputs changing while the trainee holds a key, the banner, and
// sends nothing that moves the machine. Screenshots of both pages are kept. Needs CLAMSIM_SERVER
// and Debian's Chromium, like client.test.js; skips otherwise.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  skipReason, freePort, waitFor, ServerProcess, launchBrowser, ARTIFACTS, createAccount, simSeconds,
} from './harness.js';

const PASSWORD = 'e2e watch password';
const skip = skipReason();
if (skip) {
  console.log(`e2e skipped: ${skip}`);
  test('watch a trainee against clamsim-server', { skip }, () => {});
}

describe('watch a trainee', { skip: skip ?? false }, () => {
  let server, browser, trainee, instructor, watcher;
  const errors = [];
  const accounts = path.join(ARTIFACTS, 'state-watch', 'accounts.json');

  before(async () => {
    createAccount(accounts, 'ada', PASSWORD);
    server = new ServerProcess({ httpPort: await freePort(), corbaPort: await freePort(), logName: 'server-watch.log',
      extraArgs: ['--accounts', accounts, '--report-dir', path.join(ARTIFACTS, 'reports-watch')] });
    process.once('exit', () => server.killNow());
    await server.start();
    browser = await launchBrowser();
    // two people: the trainee has no login, the instructor logs in
    const traineeContext = await browser.newContext({ viewport: { width: 1100, height: 700 } });
    const instructorContext = await browser.newContext({ viewport: { width: 1100, height: 700 } });
    trainee = await traineeContext.newPage();
    instructor = await instructorContext.newPage();
    for (const [name, page] of [['trainee', trainee], ['instructor', instructor]]) {
      page.on('pageerror', (e) => errors.push(`${name} pageerror: ${e.message}`));
    }
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
  });

  test('an anonymous page cannot watch', async () => {
    await trainee.goto(`${server.url}?observe=1`, { waitUntil: 'load', timeout: 20000 });
    await waitFor('the refusal on the page', () => trainee.evaluate(() => {
      const b = document.getElementById('banner');
      return !b.hidden && b.textContent.includes('instructor login required');
    }), { timeoutMs: 15000 });
    assert.equal(await trainee.evaluate(() => window.clamsim.frame), null, 'no frame of anyone');
  });

  test('the instructor watches the trainee: same seq, the inputs follow the keys, no control sent', async () => {
    await trainee.goto(server.url, { waitUntil: 'load', timeout: 20000 });
    await waitFor('the trainee connected', () => trainee.evaluate(() => window.clamsim.session !== null),
      { timeoutMs: 15000 });
    const id = await trainee.evaluate(() => window.clamsim.session);

    await instructor.goto(`${server.url}login.html?next=/instructor.html`, { waitUntil: 'load', timeout: 20000 });
    await instructor.fill('#name', 'ada');
    await instructor.fill('#password', PASSWORD);
    await instructor.click('#submit');
    await waitFor('the overview', async () => new URL(instructor.url()).pathname === '/instructor.html',
      { timeoutMs: 10000 });
    const link = `#live tr[data-key="${id}"] a.watch`;
    await waitFor('the session listed with a Watch link', () => instructor.isVisible(link), { timeoutMs: 10000 });
    const [page] = await Promise.all([instructor.context().waitForEvent('page', { timeout: 10000 }),
      instructor.click(link)]);
    watcher = page;
    watcher.on('pageerror', (e) => errors.push(`watcher pageerror: ${e.message}`));
    await watcher.waitForLoadState('load');
    assert.equal(new URL(watcher.url()).searchParams.get('observe'), String(id));
    await waitFor('the observer hello', () => watcher.evaluate(() => window.clamsim.observing !== null),
      { timeoutMs: 15000 });
    const observing = await watcher.evaluate(() => window.clamsim.observing);
    assert.equal(observing.session, id);
    const banner = await watcher.textContent('#observer-banner');
    assert.match(banner, new RegExp(`^Watching .* \\(session ${id}\\) - your keys do nothing$`));

    // the same frames: both pages see seq numbers from one sequence, a frame apart at most
    await waitFor('frames on both pages', async () => (await watcher.evaluate(() => window.clamsim.frame)) !== null,
      { timeoutMs: 10000 });
    const seqs = await Promise.all([trainee.evaluate(() => window.clamsim.frame.seq),
      watcher.evaluate(() => window.clamsim.frame.seq)]);
    assert.ok(Math.abs(seqs[0] - seqs[1]) <= 10, `the pages show the same session's frames: ${seqs}`);
    const swing0 = await trainee.evaluate(() => window.clamsim.frame.values.swing_deg);

    // the trainee holds the swing key: the watcher's input bar and the crane follow
    await trainee.bringToFront();
    await trainee.keyboard.down('ArrowLeft');
    try {
      await waitFor("the trainee's swing volts on the watcher's page", () => watcher.evaluate(
        () => (window.clamsim.observedVolts?.[0] ?? 0) > 1), { timeoutMs: 10000 });
      await waitFor('the crane swinging on the watcher', () => watcher.evaluate(
        (s0) => Math.abs(window.clamsim.frame.values.swing_deg - s0) > 1, swing0), { timeoutMs: 15000 });
      const shownVolts = await watcher.textContent('#observer-inputs tr[data-signal="swing"] .num');
      assert.ok(Number(shownVolts) > 1, `the swing bar shows the trainee's volts: ${shownVolts}`);
      await trainee.screenshot({ path: path.join(ARTIFACTS, 'watch-trainee.png') });
      await watcher.screenshot({ path: path.join(ARTIFACTS, 'watch-instructor.png') });
    } finally {
      await trainee.keyboard.up('ArrowLeft');
    }
    assert.equal(await trainee.isVisible('#observer'), false, "the trainee's screen has no observer panel");
    assert.equal(await trainee.isVisible('#observer-banner'), false);
    // an event: the trainee restarts the task (R, and R again to confirm)
    await trainee.keyboard.press('KeyR');
    await trainee.keyboard.press('KeyR');
    await waitFor('the restart in the watcher\'s event list', () => watcher.evaluate(() =>
      [...document.querySelectorAll('#observer-events li')].some((li) => li.dataset.kind === 'restart')),
    { timeoutMs: 10000 });
    await watcher.screenshot({ path: path.join(ARTIFACTS, 'watch-instructor-events.png') });
    await waitFor('the volts back at zero on the watcher', () => watcher.evaluate(
      () => window.clamsim.observedVolts?.[0] === 0), { timeoutMs: 10000 });
    // the watcher's keys do nothing: the crane stays where the trainee left it
    await watcher.bringToFront();
    const before = await trainee.evaluate(() => window.clamsim.frame.values.swing_deg);
    // held for 1.5 s of the trainee's simulated time: long enough to swing the crane if it counted
    await watcher.keyboard.down('ArrowRight');
    try {
      await simSeconds(trainee, 1.5, 'with the watcher\u2019s key held');
    } finally {
      await watcher.keyboard.up('ArrowRight');
    }
    const after = await trainee.evaluate(() => window.clamsim.frame.values.swing_deg);
    assert.ok(Math.abs(after - before) < 1, `the watcher's key moved nothing: ${before} -> ${after}`);
    assert.equal(await watcher.evaluate(() => window.clamsim.observedVolts[0]), 0);
  });

  test('a receiver ticket: the overview shows the command for a classroom PC', async () => {
    const id = await trainee.evaluate(() => window.clamsim.session);
    await instructor.bringToFront();
    await instructor.click(`#live tr[data-key="${id}"] button.ticket`);
    await waitFor('the ticket command', async () => /--ticket [0-9a-f]{64}$/.test(
      (await instructor.textContent('#ticket-command')) ?? ''), { timeoutMs: 10000 });
    const command = await instructor.textContent('#ticket-command');
    assert.match(command, new RegExp(`^clamsim-receiver --server corbaloc::[^ ]+/CraneClamAdmin --observe ${id} --ticket [0-9a-f]{64}$`));
    assert.match(await instructor.textContent('#ticket-note'), /within 5 minutes; the ticket works once/);
    await instructor.screenshot({ path: path.join(ARTIFACTS, 'watch-receiver-ticket.png') });
    await instructor.click('#ticket-close');
    assert.equal(await instructor.isVisible('#ticket'), false);
  });

  test('when the trainee leaves, the watcher is told', async () => {
    await trainee.close();
    await waitFor('the end on the watcher', () => watcher.evaluate(() => {
      const b = document.getElementById('banner');
      return !b.hidden && /Not watching: session \d+ .*ended/.test(b.textContent);
    }), { timeoutMs: 15000 });
    await watcher.screenshot({ path: path.join(ARTIFACTS, 'watch-ended.png') });
    assert.deepEqual(errors, []);
  });
});
