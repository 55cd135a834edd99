// Debrief replay (docs/web-client.md "Debrief replay") against the real
// clamsim-server recording into a folder of the artifacts: a trainee's page flies a short
// task (timed out after 6 s) with the boom going down onto the rack, so the run has events;
// the report's "Replay my run" opens the replay with the trainee's ticket. Once the
// trainee has left, the logged-in instructor opens the run from the report list's "Replay"
// link, waits for the server to prepare it, plays it, changes the speed, goes to an event
// from the timeline, switches to the Total view, and takes over from there into a live
// session. Screenshots: replay-*.png in tests/e2e/artifacts/.
// Needs CLAMSIM_SERVER (with --record-dir and the replay) and Debian's Chromium; skips
// otherwise, saying why.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  skipReason, freePort, waitFor, ServerProcess, launchBrowser, ARTIFACTS, writeShortTaskScenario, createAccount,
  serverHas, drawings, simSeconds, animationFrames, fadesDone,
} from './harness.js';

const PASSWORD = 'e2e replay password';
const skip = skipReason() ?? (serverHas('--record-dir') ? null : 'the server has no --record-dir (recording)');
if (skip) {
  console.log(`e2e skipped: ${skip}`);
  test('debrief replay against clamsim-server', { skip }, () => {});
}

const shot = (page, name) => page.screenshot({ path: path.join(ARTIFACTS, name) });
const replayState = (page) => page.evaluate(() => window.clamsim.replay);

describe('debrief replay', { skip: skip ?? false }, () => {
  let server, browser, traineeContext, instructorContext;
  const errors = [];
  const recordings = path.join(ARTIFACTS, 'recordings-replay');
  const reports = path.join(ARTIFACTS, 'reports-replay');
  const scenarios = path.join(ARTIFACTS, 'scenarios-replay');
  const accounts = path.join(ARTIFACTS, 'state-replay', 'accounts.json');
  let recording = null;
  const watch = (name, page) => {
    page.on('pageerror', (e) => errors.push(`${name} pageerror: ${e.message}`));
  };

  before(async () => {
    writeShortTaskScenario(scenarios, 4);   // times out at 6 s: a report, and a task_finished event
    for (const d of [recordings, reports]) {
      rmSync(d, { recursive: true, force: true });
      mkdirSync(d, { recursive: true });
    }
    createAccount(accounts, 'ada', PASSWORD);
    server = new ServerProcess({ httpPort: await freePort(), corbaPort: await freePort(), logName: 'server-replay.log',
      extraArgs: ['--accounts', accounts, '--record', 'yes', '--record-dir', recordings, '--report-dir', reports,
        '--scenarios-dir', scenarios, '--world', 'short_task'] });
    process.once('exit', () => server.killNow());
    await server.start();
    browser = await launchBrowser();
    traineeContext = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    instructorContext = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
  });

  test('a trainee flies a short task and replays it from the report', async (t) => {
    const page = await traineeContext.newPage();
    watch('trainee', page);
    await page.goto(server.url, { waitUntil: 'load', timeout: 20000 });
    await waitFor('the trainee connected', () => page.evaluate(() => window.clamsim.frame !== null), { timeoutMs: 15000 });
    // boom down with both ropes paying out: the open clam comes down onto the rack (hits),
    // then a swing; the task times out at 6 s
    await page.bringToFront();
    // held until the server counts a strike on the rack, then the swing key for 1 s of
    // simulated time (a trainee's short swing: its length is the point, not a wait)
    for (const k of ['ArrowDown', 'KeyA', 'KeyD']) await page.keyboard.down(k);
    try {
      await waitFor('a strike on the rack (score.rack_gate_hits)', () => page.evaluate(
        () => window.clamsim.debug().score?.rack_gate_hits > 0), { timeoutMs: 30000, everyMs: 50 });
    } finally {
      for (const k of ['ArrowDown', 'KeyA', 'KeyD']) await page.keyboard.up(k);
    }
    await page.keyboard.down('ArrowLeft');
    try {
      await simSeconds(page, 1, 'with the swing key held');
    } finally {
      await page.keyboard.up('ArrowLeft');
    }
    await waitFor('the report', () => page.isVisible('#report .report-card'), { timeoutMs: 15000 });
    assert.ok(await page.isVisible('#report-replay'), 'the report offers "Replay my run"');
    await shot(page, 'replay-trainee-report.png');

    const [tab] = await Promise.all([traineeContext.waitForEvent('page', { timeout: 10000 }), page.click('#report-replay')]);
    watch('trainee replay', tab);
    const note = await waitFor('the answer on the report', async () => {
      const n = await page.textContent('#report-replay-note');
      return n && !n.startsWith('Asking') ? n : null;
    }, { timeoutMs: 10000 });
    if (note.startsWith('No replay')) {
      await tab.close();
      return t.skip(`the server gives no replay ticket yet (${note})`);
    }
    await waitFor('the replay tab at its address', () => new URL(tab.url()).searchParams.get('replay'), { timeoutMs: 10000 });
    const url = new URL(tab.url());
    recording = url.searchParams.get('replay');
    assert.match(recording, /\.mcap$/);
    assert.ok(url.searchParams.get('ticket'), "the trainee's ticket is in the address");
    await waitFor("the trainee's replay hello", () => tab.evaluate(() => window.clamsim.replay?.info !== null
      && window.clamsim.replay?.info !== undefined), { timeoutMs: 20000 });
    assert.equal((await replayState(tab)).info.recording, recording);
    await shot(tab, 'replay-trainee-tab.png');
    await tab.close();
    await page.close();   // the session ends: its recording is closed
  });

  test('the instructor replays the run: prepare, play, speed, an event from the timeline, Total view', async (t) => {
    const instructor = await instructorContext.newPage();
    watch('instructor', instructor);
    await instructor.goto(`${server.url}login.html?next=/instructor.html`, { waitUntil: 'load', timeout: 20000 });
    await instructor.fill('#name', 'ada');
    await instructor.fill('#password', PASSWORD);
    await instructor.click('#submit');
    await waitFor('the overview', async () => new URL(instructor.url()).pathname === '/instructor.html', { timeoutMs: 10000 });
    await waitFor('a recording in the folder', () => readdirSync(recordings).some((f) => f.endsWith('.mcap')), { timeoutMs: 10000 });
    recording ??= readdirSync(recordings).find((f) => f.endsWith('.mcap'));
    await waitFor('the report listed', () => instructor.isVisible('#reports tbody tr'), { timeoutMs: 15000 });
    const listed = await instructor.evaluate(() => fetch('/api/reports').then((r) => r.json()));
    if (!listed.reports?.some((r) => r.recording)) return t.skip('/api/reports does not name the recordings yet');
    await waitFor('the report listed with a Replay link', () => instructor.isVisible('#reports a.replay'), { timeoutMs: 15000 });
    const href = await instructor.getAttribute('#reports a.replay', 'href');
    const from = Number(new URL(href, server.url).searchParams.get('from'));
    assert.equal(new URL(href, server.url).searchParams.get('replay'), recording);
    await shot(instructor, 'replay-instructor-list.png');
    const [page] = await Promise.all([instructorContext.waitForEvent('page', { timeout: 10000 }), instructor.click('#reports a.replay')]);
    watch('replay', page);
    await page.waitForLoadState('load');

    await waitFor('the hello', () => page.evaluate(() => window.clamsim.session !== null), { timeoutMs: 20000 });
    const first = await replayState(page);
    if (!first?.info) return t.skip('the server answered ?replay= with a live session (no hello.replay yet)');
    assert.match(await page.textContent('#replay-banner'),
      /^Replay of (.+’s run|a run) \(session \d+\), recorded \d{4}-\d\d-\d\d \d\d:\d\d$/);
    // the preparation shows, then the timeline arrives
    await waitFor('the replay ready', async () => (await replayState(page)).ready, { timeoutMs: 60000 });
    const ready = await replayState(page);
    assert.ok(ready.events.length > 0, 'the run has events (at least its end)');
    // (task_finished: the observers' name for it)
    assert.ok(ready.events.some((e) => e.kind === 'task_finished'),
      `the task's end is on the timeline: ${ready.events.map((e) => e.kind)}`);
    assert.equal(await page.isVisible('#replay-prep'), false, 'the progress card is gone');
    await waitFor('the plots drawn', () => page.evaluate(() => document.querySelectorAll('#replay-side .uplot canvas').length >= 2),
      { timeoutMs: 10000 });
    // the report's "from": the replay starts where that attempt began
    await waitFor(`the replay at frame ${from}`, async () => (await replayState(page)).k === from, { timeoutMs: 10000 });
    await waitFor('a frame drawn', () => page.evaluate(() => window.clamsim.frame !== null), { timeoutMs: 10000 });
    await shot(page, 'replay-ready.png');

    // play, at 4x
    await page.click('#replay-play');
    await waitFor('playing', async () => (await replayState(page)).playing, { timeoutMs: 5000 });
    const k0 = (await replayState(page)).k;
    await page.selectOption('#replay-speed', '4');
    await waitFor('4x from the server', async () => (await replayState(page)).speed === 4, { timeoutMs: 5000 });
    await waitFor('frames moving on', async () => (await replayState(page)).k > k0 + 20, { timeoutMs: 10000 });
    await shot(page, 'replay-playing.png');
    // the space bar pauses (nothing focused that takes it)
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press('Space');
    await waitFor('paused', async () => !(await replayState(page)).playing, { timeoutMs: 5000 });

    // an event from the timeline: a hit if there is one
    const tall = page.locator('.replay-mark[data-tall="true"]');
    const someMark = (await tall.count()) ? tall.first() : page.locator('.replay-mark').first();
    const k = Number(await someMark.getAttribute('data-k'));
    // the timeline may be drawn anew while the test works (a held element handle then points
    // at a detached node): a locator finds the marker by its frame at each use
    const marker = page.locator(`.replay-mark[data-k="${k}"]`).first();
    const title = await marker.getAttribute('title');
    await marker.click();
    await waitFor(`the replay at the event's frame ${k}`, async () => (await replayState(page)).k === k
      && (await page.evaluate(() => window.clamsim.frame?.seq)) === k - 1, { timeoutMs: 10000 });
    console.log(`replay: went to ${title.split('\n')[0]} (frame ${k})`);
    await shot(page, 'replay-event.png');
    // the events list seeks too
    const item = page.locator('#replay-events .replay-event').first();
    const kItem = Number(await item.getAttribute('data-k'));
    await item.click();
    await waitFor(`the list's event at frame ${kItem}`, async () => (await replayState(page)).k === kItem, { timeoutMs: 10000 });
    await marker.click();
    await waitFor('back at the marker', async () => (await replayState(page)).k === k, { timeoutMs: 10000 });

    // the five views still work; the keys move nothing
    await page.keyboard.press('Digit5');
    assert.equal(await page.evaluate(() => window.clamsim.view), 'total');
    // drawn in the next animation frame (a paused replay draws on a change only), then any
    // fade finished
    await animationFrames(page, 2);
    await waitFor('the Total view\u2019s fading done', () => fadesDone(page), { timeoutMs: 20000, everyMs: 50 });
    await shot(page, 'replay-total.png');
    await page.keyboard.press('Digit1');
    assert.equal(await page.evaluate(() => window.clamsim.drivingVolts.every((v) => v === 0)), true);

    // take over from here: a live session at this moment
    await page.click('#replay-takeover');
    await waitFor('the live page of the take-over', () => new URL(page.url()).searchParams.get('takeover'), { timeoutMs: 15000 });
    await waitFor('live frames', () => page.evaluate(() => window.clamsim.frame !== null && window.clamsim.replay === null),
      { timeoutMs: 20000 });
    await drawings(page);
    const notice = await page.textContent('#instructor-message');
    assert.match(notice, /Take-over: you have the controls from \d+:\d\d\.\d of the replayed run/, notice);
    await shot(page, 'replay-takeover.png');
    assert.deepEqual(errors, []);
  });
});
