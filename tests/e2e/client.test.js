// The browser client against the real clamsim-server: page load, frames, a virtual
// joystick swinging the crane, the working world (loads, contacts, warnings, the task's
// score, restart, the report at the end), the five views, recovery after a server restart.
// Needs CLAMSIM_SERVER (the lead sets it from CMake) and Debian's Chromium; skips otherwise.
// Every test opens its own page (a browser context of its own: its own session on the
// server, the crane at its home pose, empty localStorage), so none depends on another or on
// their order. Waits are for events (a counter grown, a frame's simulated time); a time
// bound only ends a wait for something that did not happen.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync, readdirSync, rmSync, existsSync } from 'node:fs';
import path from 'node:path';
import {
  skipReason, waitFor, sleep, startServerAndBrowser, VIRTUAL_JOYSTICK, drawings, animationFrames,
  canvasSignature, thumbDifference, measureFps, ARTIFACTS, serverHas, writeShortTaskScenario, startTaskClock,
} from './harness.js';

const skip = skipReason();
if (skip) {
  console.log(`e2e skipped: ${skip}`);
  test('browser client against clamsim-server', { skip }, () => {});
}

const VIEWS = ['full', 'top', 'window', 'focus', 'total'];
const hudNumber = async (page, id) => Number((await page.textContent(`#hud-${id}`)).replace(/[^0-9.+-]/g, ''));
const debug = (page) => page.evaluate(() => window.clamsim.debug());
const REPORTS = path.join(ARTIFACTS, 'reports');
// Resolves once `n` more frames have come from the server (simulated time has gone on).
const framesPass = async (page, n) => {
  const seq = await page.evaluate(() => window.clamsim.frame.seq);
  await waitFor(`${n} more frames`, () => page.evaluate((s) => window.clamsim.frame.seq >= s, seq + n),
    { timeoutMs: 30000, everyMs: 50 });
};
// finished tasks' reports go to the artifacts, not the repository's reports/
const reportArgs = () => (serverHas('--report-dir') ? ['--report-dir', REPORTS] : []);

async function openPage(browser, consoleErrors) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 760 } });
  await context.addInitScript(VIRTUAL_JOYSTICK);
  const page = await context.newPage();
  page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
  return page;
}

describe('browser client against clamsim-server', { skip: skip ?? false }, () => {
  let server, browser;

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    ({ server, browser } = await startServerAndBrowser({ extraArgs: reportArgs() }));
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
  });

  // A page of the test's own, connected, its scene built; closed when the test ends. Unless
  // asked not to, the first-visit name card is put away ("Not now"), as a trainee would.
  async function openClient(t, { putNameCardAway = true } = {}) {
    const consoleErrors = [];
    const context = await browser.newContext({ viewport: { width: 1280, height: 760 } });
    t.after(() => context.close().catch(() => {}));
    await context.addInitScript(VIRTUAL_JOYSTICK);
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
    page.on('requestfailed', (r) => consoleErrors.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
    const resp = await page.goto(`${server.url}?screenshots=1`, { waitUntil: 'load', timeout: 20000 });
    assert.equal(resp.status(), 200);
    await waitFor('the page to say "connected"', async () => (await page.textContent('#hud-connection')) === 'connected', { timeoutMs: 15000 });
    await waitFor('the scene (hello) to be built', () => page.evaluate(() => window.clamsim.frame !== null), { timeoutMs: 10000 });
    if (putNameCardAway) {
      await waitFor('the name card', () => page.isVisible('#trainee-prompt #trainee-input'), { timeoutMs: 5000 });
      await page.click('#trainee-cancel');
    }
    return { page, consoleErrors };
  }

  test('the page loads and connects without console errors', async (t) => {
    const { page, consoleErrors } = await openClient(t, { putNameCardAway: false });
    // first visit, no name stored: a card asks for it without taking the keys; "Not now"
    // puts it away for this tab and stores nothing (the trainee-name test goes further)
    await waitFor('the name card', () => page.isVisible('#trainee-prompt #trainee-input'), { timeoutMs: 5000 });
    assert.notEqual(await page.evaluate(() => document.activeElement?.id), 'trainee-input');
    await page.click('#trainee-cancel');
    assert.equal(await page.isVisible('#trainee-prompt'), false);
    assert.equal(await page.evaluate(() => localStorage.length), 0);
    assert.deepEqual(consoleErrors, []);
  });

  test('frames arrive: the HUD frame counter grows', async (t) => {
    const { page } = await openClient(t);
    const a = await hudNumber(page, 'frames');
    // the HUD's counter, redrawn four times a second, follows the frames in order
    await waitFor('the HUD to count 10 more frames', async () => (await hudNumber(page, 'frames')) > a + 10,
      { timeoutMs: 30000, everyMs: 100 });
    // three round trips of the page's pings (one a second), each read after its ping went
    // out: a figure for the log, not a bound
    const rtts = [];
    for (let i = 0; i < 3; i++) {
      const id = await page.evaluate(() => window.clamsim.stats.pingId);
      await waitFor('the next ping', () => page.evaluate((n) => window.clamsim.stats.pingId > n, id), { timeoutMs: 30000 });
      rtts.push(await waitFor('a ping round trip', () => page.evaluate(() => {
        const ms = window.clamsim.stats.latencyMs;
        return Number.isFinite(ms) ? ms : false;
      }), { timeoutMs: 30000 }));
    }
    t.diagnostic(`round trips ${rtts.map((x) => x.toFixed(1)).join(', ')} ms; ${await page.textContent('#hud-rate')} frames/s from the server; ${await page.textContent('#hud-fps')} renders/s (between frames too while the crane moves)`);
    const swing = await page.textContent('#hud-swing');
    assert.match(swing, /^-?\d+\.\d$/);
  });

  test('a virtual joystick swings the crane', async (t) => {
    const { page } = await openClient(t);
    await waitFor('the joystick to be seen', async () => /Virtual 3-axis stick/.test(await page.textContent('#hud-source')), { timeoutMs: 5000 });
    const before = await page.evaluate(() => window.clamsim.frame.values.swing_deg);
    // stick left: +5 V on the swing motor (counter-clockwise)
    await page.evaluate(() => { window.__e2ePad.axes[0] = -1; });
    await waitFor('the swing volts to read +5', async () => (await page.textContent('#hud-volts-swing')) === '5.0', { timeoutMs: 3000 });
    const moved = await waitFor('the reported swing angle to change by 1 deg', async () => {
      const now = await page.evaluate(() => window.clamsim.frame.values.swing_deg);
      let d = now - before;
      if (d > 180) d -= 360;
      if (d < -180) d += 360;
      return Math.abs(d) > 1 ? d : false;
    }, { timeoutMs: 20000, everyMs: 200 });
    await page.evaluate(() => { window.__e2ePad.axes[0] = 0; });
    assert.ok(moved > 0, `positive volts swing counter-clockwise (got ${moved.toFixed(2)} deg)`);
    await waitFor('the swing volts to return to 0', async () => (await page.textContent('#hud-volts-swing')) === '0.0', { timeoutMs: 3000 });
    await page.screenshot({ path: path.join(ARTIFACTS, 'after-swing.png') });
  });

  test('the working world: the scene\'s loads are drawn and posed, the score panel runs', async (t) => {
    const { page } = await openClient(t);
    const d0 = await debug(page);
    assert.ok(d0.sceneLoads > 0, 'the scenario has loads (hello.scene.loads)');
    assert.equal(d0.loadMeshes, d0.sceneLoads, 'one mesh per load');
    const d = await waitFor('every load posed by a frame', async () => {
      const x = await debug(page);
      return x.loadsVisible === x.loadMeshes ? x : false;
    }, { timeoutMs: 5000 });
    assert.ok(d.kinds.includes('log'), `logs among ${d.kinds.join(', ')}`);
    const frame = await page.evaluate(() => window.clamsim.frame);
    assert.equal(frame.loads.length, d.sceneLoads, 'display.loads has every load');
    assert.equal(frame.clam_orientation.length, 4);
    assert.ok(d.score?.enabled, 'the scenario has a task');
    assert.equal(d.scoreVisible, true);
    assert.equal(await page.locator('#score .score-penalties li').count(), 7);
    // a new session's task clock waits for the first moved control
    assert.equal(d.score.running, false);
    const text1 = await page.textContent('#score-time');
    await startTaskClock(page);
    const e1 = (await debug(page)).score.elapsed_s;
    await waitFor('the task clock to run 1.5 s on', async () => (await debug(page)).score.elapsed_s > e1 + 1.5,
      { timeoutMs: 30000 });
    await waitFor('the panel to show the clock running', async () => (await page.textContent('#score-time')) !== text1,
      { timeoutMs: 5000 });
    assert.match(await page.textContent('#score-points'), /^\d+(\.\d)?$/);
    assert.match(await page.textContent('#score-delivered'), /^\d+ \/ \d+$/);
    const bytes = await page.evaluate(() => JSON.stringify(window.clamsim.frame).length);
    t.diagnostic(`${d.sceneLoads} loads (${d.kinds.join(', ')}); score ${await page.textContent('#score-points')} points at ${await page.textContent('#score-time')}; a parsed frame re-serialised is ${bytes} bytes`);
    await page.screenshot({ path: path.join(ARTIFACTS, 'world-full.png') });
  });

  test('lowering the clam into the bay: contacts are marked and the HUD warns', async (t) => {
    // from the home pose (a new session's), both winches pay out (handles pulled back): the
    // clam goes down between the dam face and the rack, rubbing the rack
    const { page } = await openClient(t);
    await page.evaluate(() => { window.__e2ePad.axes[3] = -1; window.__e2ePad.axes[4] = -1; });
    const seen = { warnings: new Set(), markers: 0, contacts: 0 };
    const end = Date.now() + 60000;  // only ends a wait for what never came
    while (Date.now() < end) {
      const x = await debug(page);
      if (x.warnings.includes('contact') && !seen.warnings.has('contact')) {
        await page.screenshot({ path: path.join(ARTIFACTS, 'contact-warning.png') });
      }
      x.warnings.forEach((w) => seen.warnings.add(w));
      seen.markers = Math.max(seen.markers, x.markers);
      seen.contacts = Math.max(seen.contacts, await page.evaluate(() => window.clamsim.frame.contacts.length));
      if (seen.markers > 0 && seen.warnings.has('water')) break;
      await sleep(100);
    }
    await page.screenshot({ path: path.join(ARTIFACTS, 'world-lowered.png') });
    await page.click('button[data-view="focus"]');
    await drawings(page);
    await page.screenshot({ path: path.join(ARTIFACTS, 'world-lowered-focus.png') });
    await page.evaluate(() => { window.__e2ePad.axes[3] = 0; window.__e2ePad.axes[4] = 0; });
    await page.click('button[data-view="full"]');
    t.diagnostic(`while lowering: up to ${seen.contacts} contacts a frame, ${seen.markers} markers drawn, warnings ${[...seen.warnings].join(', ') || 'none'}`);
    assert.ok(seen.markers > 0, 'a contact was drawn as a marker');
    assert.ok(seen.warnings.has('water'), 'the HUD said the clam is under water');
    const badges = await page.locator('#warnings .warning').count();
    assert.ok(badges >= 1, 'warnings are badges over the view');
  });

  test('structures between a camera and the clam turn see-through, and opaque again', async (t) => {
    // from the home pose, both winches pay out: the clam goes down behind the rack, which
    // (with the near pier) stands between it and the Full view's camera
    const { page, consoleErrors } = await openClient(t);
    const occlusion = () => page.evaluate(() => window.clamsim.occlusion());
    await page.click('button[data-view="full"]');
    const acked = (await debug(page)).restarts.acknowledged;
    await page.evaluate(() => window.clamsim.restart());
    await waitFor('the restart', async () => (await debug(page)).restarts.acknowledged > acked, { timeoutMs: 3000 });
    await waitFor('nothing see-through at the home pose', async () => Object.keys((await occlusion()).full ?? {}).length === 0,
      { timeoutMs: 3000 });
    await page.evaluate(() => { window.__e2ePad.axes[3] = -1; window.__e2ePad.axes[4] = -1; });
    try {
      await waitFor('the rack to hide the clam in the Full view', async () =>
        (await page.evaluate(() => window.clamsim.occluded())).full?.includes('trash rack'), { timeoutMs: 20000, everyMs: 100 });
      // on down until the whole clam is in the bay, below the deck (A, its top, at z < -1 m)
      await waitFor('the clam below the deck', () => page.evaluate(() => window.clamsim.frame.point_a_m?.[2] < -1),
        { timeoutMs: 20000, everyMs: 100 });
    } finally {
      await page.evaluate(() => { window.__e2ePad.axes[3] = 0; window.__e2ePad.axes[4] = 0; });
    }
    const full = await waitFor('the rack fully faded', async () => {
      const o = (await occlusion()).full;
      return o?.['trash rack'] <= 0.3 ? o : false;
    }, { timeoutMs: 3000 });
    const a = await page.evaluate(() => window.clamsim.frame.point_a_m);
    t.diagnostic(`Full, A at z = ${a?.[2]?.toFixed(2)} m: see-through ${JSON.stringify(full)}`);
    assert.ok(!('truck' in full) && !('deck' in full), `only what stands in front: ${Object.keys(full)}`);
    await page.screenshot({ path: path.join(ARTIFACTS, 'occluded-full.png') });

    // Total: each viewport fades what stands in front of its own camera
    await page.click('button[data-view="total"]');
    const total = await waitFor('the four viewports drawn', async () => {
      const o = await occlusion();
      return Object.keys(o).length === 4 ? o : false;
    }, { timeoutMs: 3000 });
    t.diagnostic(`Total: ${JSON.stringify(total)}`);
    assert.ok('trash rack' in total.full, 'the Full quadrant still sees the clam through the rack');
    await drawings(page);
    await page.screenshot({ path: path.join(ARTIFACTS, 'occluded-total.png') });
    await page.click('button[data-view="focus"]');
    await drawings(page);
    t.diagnostic(`Focus: ${JSON.stringify((await occlusion()).focus)}`);
    await page.screenshot({ path: path.join(ARTIFACTS, 'occluded-focus.png') });

    // back at the home pose, above the bay: everything opaque again
    await page.click('button[data-view="full"]');
    const n = (await debug(page)).restarts.acknowledged;
    await page.evaluate(() => window.clamsim.restart());
    await waitFor('the restart', async () => (await debug(page)).restarts.acknowledged > n, { timeoutMs: 3000 });
    await waitFor('the rack opaque again', async () => Object.keys((await occlusion()).full ?? {}).length === 0,
      { timeoutMs: 3000 });
    assert.deepEqual(consoleErrors, []);
  });

  test('a hit on the trash rack rumbles the joystick, and not once rumble is turned off', async (t) => {
    const { page, consoleErrors } = await openClient(t);
    const rumbles = () => page.evaluate(() => window.__e2ePad.rumbles.slice());
    const frameEvents = () => page.evaluate(() => window.clamsim.frame.events);
    // from the home pose, boom down with both winches paying out: the open clam swings out
    // over the rack and drops onto its top faster than 0.2 m/s (about 2 s in)
    async function strikeRack() {
      const n = (await debug(page)).restarts.acknowledged;
      await page.evaluate(() => window.clamsim.restart());
      await waitFor('the restart', async () => (await debug(page)).restarts.acknowledged > n, { timeoutMs: 3000 });
      await waitFor('a frame of the new attempt', () => page.evaluate(() =>
        window.clamsim.frame.t < 1 && window.clamsim.frame.events.rack_gate_hits === 0), { timeoutMs: 3000, everyMs: 50 });
      await page.evaluate(() => Object.assign(window.__e2ePad.axes, { 1: -1, 3: -1, 4: -1 }));
      try {
        return await waitFor('a rack/gate hit', async () => {
          const ev = await frameEvents();
          return ev.rack_gate_hits > 0 ? ev : false;
        }, { timeoutMs: 15000, everyMs: 50 });
      } finally {
        await page.evaluate(() => Object.assign(window.__e2ePad.axes, { 1: 0, 3: 0, 4: 0 }));
      }
    }
    const isHitRumble = (r) => r.type === 'dual-rumble' && r.duration === 250 && r.strongMagnitude === 1 && r.weakMagnitude === 0.6;

    // on by default: the stick driving the crane feels the hit
    assert.equal((await debug(page)).rumble.enabled, true);
    let before = (await rumbles()).length;
    const ev = await strikeRack();
    const felt = await waitFor('the joystick to rumble', async () => (await rumbles()).slice(before).find(isHitRumble),
      { timeoutMs: 3000, everyMs: 50 });
    const last = (await debug(page)).rumble.last;
    t.diagnostic(`hit: ${JSON.stringify(ev)}; rumbles since: ${JSON.stringify((await rumbles()).slice(before).map((r) => r.duration))}; last ${JSON.stringify(last)}`);
    assert.equal(felt.startDelay, 0);
    assert.match(last.devices.join(','), /Virtual 3-axis stick/);

    // the setting in the joystick dialog: off, saved, nothing felt on the next hit
    await page.click('#open-mapping');
    await waitFor('the mapping screen', () => page.isVisible('dialog#mapping #rumble-enabled'), { timeoutMs: 3000 });
    assert.match(await page.textContent('dialog#mapping .rumble'), /Felt on Virtual 3-axis stick/);
    before = (await rumbles()).length;
    await page.click('#rumble-test');
    await waitFor('the Try button to rumble', async () => (await rumbles()).slice(before).some(isHitRumble), { timeoutMs: 2000 });
    await page.uncheck('#rumble-enabled');
    assert.equal(await page.evaluate(() => localStorage.getItem('clamsim.rumble.v1')), 'off');
    await page.click('dialog#mapping button[value="close"]');
    await waitFor('the mapping screen to close', async () => !(await page.isVisible('dialog#mapping')), { timeoutMs: 3000 });
    try {
      const muted = (await debug(page)).rumble.muted;
      before = (await rumbles()).length;
      await strikeRack();
      await waitFor('the hit to be passed over (muted)', async () => (await debug(page)).rumble.muted > muted, { timeoutMs: 3000 });
      assert.deepEqual((await rumbles()).slice(before), [], 'no rumble with the setting off');
    } finally {
      // back on, and out of storage: the setting goes both ways
      await page.click('#open-mapping');
      await page.check('#rumble-enabled');
      await page.click('dialog#mapping button[value="close"]');
      await page.evaluate(() => localStorage.removeItem('clamsim.rumble.v1'));
    }
    assert.equal((await debug(page)).rumble.enabled, true);
    const n = (await debug(page)).restarts.acknowledged;
    await page.evaluate(() => window.clamsim.restart());
    await waitFor('the restart', async () => (await debug(page)).restarts.acknowledged > n, { timeoutMs: 3000 });
    assert.deepEqual(consoleErrors, []);
  });

  test('restart: the button, key R (twice while running) and the joystick start the task over', async (t) => {
    const { page, consoleErrors } = await openClient(t);
    await startTaskClock(page);
    await waitFor('the task clock past 3 s', async () => (await debug(page)).score.elapsed_s > 3, { timeoutMs: 10000 });
    const acked = async () => (await debug(page)).restarts.acknowledged;
    const nearZero = async () => {
      const x = await debug(page);
      return x.score.elapsed_s < 1.5 && (await page.evaluate(() => window.clamsim.frame.t)) < 1.5;
    };
    let n = await acked();
    await page.click('#score-restart');
    await waitFor('the server to acknowledge the restart', async () => (await acked()) > n, { timeoutMs: 3000 });
    await waitFor('the task clock back near 0', nearZero, { timeoutMs: 3000, everyMs: 50 });
    await page.screenshot({ path: path.join(ARTIFACTS, 'restarted.png') });

    // a new attempt waits for a control again: the clock stands still through a dozen frames
    await framesPass(page, 12);
    assert.equal((await debug(page)).score.running, false, 'the clock waits for the first moved control');
    assert.equal((await debug(page)).score.elapsed_s, 0);
    assert.match(await page.textContent('#score-ready'), /READY — move a control to start/);
    // key R: while the task runs the first press asks, the second restarts
    await startTaskClock(page);
    await waitFor('the task clock past 2 s', async () => (await debug(page)).score.elapsed_s > 2, { timeoutMs: 5000 });
    n = await acked();
    await page.keyboard.press('KeyR');
    await waitFor('"press again" on screen', async () => /again to restart/.test(await page.textContent('#warnings')),
      { timeoutMs: 2000 });
    const sentBefore = (await debug(page)).restarts.sent;
    await framesPass(page, 6);
    assert.equal((await debug(page)).restarts.sent, sentBefore, 'one press only asks');
    await page.keyboard.press('KeyR');
    await waitFor('the restart by key R', async () => (await acked()) > n, { timeoutMs: 3000 });
    await waitFor('the task clock back near 0', nearZero, { timeoutMs: 3000, everyMs: 50 });

    // the joystick's restart button (9 by default), pressed twice
    await startTaskClock(page);
    await waitFor('the task clock past 2 s', async () => (await debug(page)).score.elapsed_s > 2, { timeoutMs: 5000 });
    n = await acked();
    for (let i = 0; i < 2; i++) {
      await page.evaluate(() => { window.__e2ePad.buttons[9] = { pressed: true, touched: true, value: 1 }; });
      await animationFrames(page);  // seen pressed
      await page.evaluate(() => { window.__e2ePad.buttons[9] = { pressed: false, touched: false, value: 0 }; });
      await animationFrames(page);  // seen released
    }
    await waitFor('the restart by the joystick', async () => (await acked()) > n, { timeoutMs: 3000 });
    await waitFor('the task clock back near 0', nearZero, { timeoutMs: 3000, everyMs: 50 });
    assert.deepEqual(consoleErrors, []);
  });

  test('the mapping screen lists the joystick, learns an axis and saves it per device', async (t) => {
    const { page } = await openClient(t);
    await page.click('#open-mapping');
    await waitFor('the mapping screen', () => page.isVisible('dialog#mapping'), { timeoutMs: 3000 });
    assert.match(await page.textContent('dialog#mapping .devices'), /Virtual 3-axis stick/);
    // learn: telescope from axis 4, pushed the negative way (so inverted)
    const rows = page.locator('dialog#mapping tbody tr');
    await rows.nth(2).locator('button.learn').first().click();
    await page.evaluate(() => { window.__e2ePad.axes[4] = -1; });
    const saved = await waitFor('the learned binding to be saved', () => page.evaluate(() =>
      localStorage.getItem(`clamsim.mapping.v1:${window.__e2ePad.id}`)), { timeoutMs: 3000 });
    assert.deepEqual(JSON.parse(saved).signals.telescope, [{ kind: 'axis', index: 4, invert: true }]);
    // live output: the telescope now reads +5 V from the handle held at -1
    await waitFor('the live output to show +5 V', async () => (await rows.nth(2).locator('td.live').textContent()) === '5.00 V', { timeoutMs: 3000 });
    await page.evaluate(() => { window.__e2ePad.axes[4] = 0; });
    await page.screenshot({ path: path.join(ARTIFACTS, 'mapping-screen.png') });
    await page.click('dialog#mapping >> text=Reset to the default layout');
    assert.equal(await page.evaluate(() => localStorage.length), 0);
    await page.click('dialog#mapping button[value="close"]');
    await waitFor('the mapping screen to close', async () => !(await page.isVisible('dialog#mapping')), { timeoutMs: 3000 });
  });

  test('each of the five views renders a distinct, non-blank picture', async (t) => {
    const { page, consoleErrors } = await openClient(t);
    const sigs = {};
    const fps = {};
    const panel = {};  // the score panel's box per view
    for (const [i, view] of VIEWS.entries()) {
      await page.click(`button[data-view="${view}"]`);
      assert.equal(await page.evaluate(() => window.clamsim.view), view);
      await drawings(page);  // a few in this view
      panel[view] = await page.locator('#score').boundingBox();
      sigs[view] = await canvasSignature(page);
      await page.screenshot({ path: path.join(ARTIFACTS, `view-${i + 1}-${view}.png`) });
      fps[view] = await measureFps(page, 2000);
      t.diagnostic(`${view}: ${fps[view].fps.toFixed(1)} frames/s redrawing every frame (requestAnimationFrame over 2 s)`);
    }
    writeFileSync(path.join(ARTIFACTS, 'fps.json'), `${JSON.stringify(fps, null, 2)}\n`);
    // Total's four small views: the score panel shrinks to points, clock and deliveries
    t.diagnostic(`score panel: full ${panel.full?.width}x${panel.full?.height}, total ${panel.total?.width}x${panel.total?.height}`);
    assert.ok(panel.total.width * panel.total.height < 0.5 * panel.full.width * panel.full.height,
      'the score panel covers less than half as much in Total');
    for (const view of VIEWS) {
      const s = sigs[view];
      assert.ok(s.sd > 8 && s.colours >= 6, `${view} looks blank (brightness sd ${s.sd.toFixed(1)}, ${s.colours} colours)`);
    }
    for (let i = 0; i < VIEWS.length; i++) {
      for (let j = i + 1; j < VIEWS.length; j++) {
        const d = thumbDifference(sigs[VIEWS[i]].thumb, sigs[VIEWS[j]].thumb);
        assert.ok(d > 4, `${VIEWS[i]} and ${VIEWS[j]} look the same (mean difference ${d.toFixed(1)})`);
      }
    }
    // keys 1-5 switch too, and the joystick's view button (button 1 by default)
    await page.keyboard.press('Digit2');
    assert.equal(await page.evaluate(() => window.clamsim.view), 'top');
    await page.keyboard.press('Digit1');
    assert.equal(await page.evaluate(() => window.clamsim.view), 'full');
    await page.evaluate(() => { window.__e2ePad.buttons[1] = { pressed: true, touched: true, value: 1 }; });
    await waitFor('the joystick button to switch the view', async () => (await page.evaluate(() => window.clamsim.view)) === 'top', { timeoutMs: 2000 });
    await page.evaluate(() => { window.__e2ePad.buttons[1] = { pressed: false, touched: false, value: 0 }; });
    await animationFrames(page, 6);
    assert.equal(await page.evaluate(() => window.clamsim.view), 'top');  // once per press
    await page.keyboard.press('Digit1');
    assert.deepEqual(consoleErrors, []);
  });

  // A page of its own (its own localStorage): the name entered, acknowledged and listed by
  // /api/sessions; a bad one refused on the page and never sent; sent again after a reload.
  test('the trainee\'s name: entered, acknowledged, listed; refused when bad; sent again after a reload', async (t) => {
    const errors = [];
    const context = await browser.newContext({ viewport: { width: 1280, height: 760 } });
    await context.addInitScript(VIRTUAL_JOYSTICK);
    const p = await context.newPage();
    p.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    p.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    // every message the page sends, per WebSocket (a reload opens a new one)
    const sent = [];
    let sockets = 0;
    p.on('websocket', (ws) => {
      const n = ++sockets;
      ws.on('framesent', (f) => {
        try { sent.push({ ws: n, msg: JSON.parse(f.payload) }); } catch { /* not JSON */ }
      });
    });
    const names = (ws) => sent.filter((s) => s.msg.type === 'trainee' && (ws === undefined || s.ws === ws)).map((s) => s.msg.name);
    const state = () => p.evaluate(() => window.clamsim.trainee);
    const listed = async () => {
      const id = await p.evaluate(() => window.clamsim.session);
      const res = await p.request.get(`${server.url}api/sessions`);
      assert.equal(res.status(), 200);
      return (await res.json()).sessions.find((s) => s.id === id);
    };
    const connected = () => waitFor('the page to connect', async () =>
      (await p.textContent('#hud-connection')) === 'connected' && (await p.evaluate(() => window.clamsim.session !== null)),
    { timeoutMs: 15000 });
    try {
      await p.goto(`${server.url}?screenshots=1`, { waitUntil: 'load', timeout: 20000 });
      await connected();
      assert.equal((await listed()).trainee, null, 'a session starts without a name');

      // no name yet: the card asks, the crane still flies from the keys
      assert.ok(await p.isVisible('#trainee-prompt #trainee-input'));
      assert.equal(await p.textContent('#trainee-name'), 'not set');
      await p.keyboard.down('ArrowLeft');
      await waitFor('the swing volts to read +5 from the key', async () => (await p.textContent('#hud-volts-swing')) === '5.0', { timeoutMs: 3000 });
      await p.keyboard.up('ArrowLeft');
      await waitFor('the swing volts back at 0', async () => (await p.textContent('#hud-volts-swing')) === '0.0', { timeoutMs: 3000 });
      await p.screenshot({ path: path.join(ARTIFACTS, 'trainee-prompt.png') });

      // typed into the field: the letters fly nothing, switch no view, open no dialog,
      // restart nothing (W S Q A E D, M, R and 3 are all in this name)
      const name = 'Marquise de Wessex 3';
      const mark = sent.length;
      const restartsBefore = (await debug(p)).restarts.sent;
      await p.click('#trainee-input');
      await p.keyboard.type(`  ${name} `, { delay: 20 });
      assert.equal(await p.evaluate(() => window.clamsim.view), 'full');
      assert.equal(await p.isVisible('dialog#mapping'), false);
      assert.equal((await debug(p)).restarts.sent, restartsBefore);
      const controls = sent.slice(mark).filter((s) => s.msg.type === 'control');
      assert.ok(controls.length > 0, 'controls went on while typing');
      assert.ok(controls.every((s) => s.msg.volts.every((v) => v === 0)), 'zero volts while typing');
      assert.equal(await p.textContent('#trainee-count'), `${name.length}/40`);
      await p.keyboard.press('Enter');
      await waitFor('the server to acknowledge the name', async () => (await state()).state === 'acknowledged', { timeoutMs: 5000 });
      assert.deepEqual(names(), [name], 'sent once, trimmed');
      assert.equal(await p.textContent('#trainee-name'), name);
      assert.equal(await p.textContent('#trainee-status'), '✔');
      assert.equal(await p.isVisible('#trainee-prompt'), false);
      assert.equal(await p.evaluate(() => localStorage.getItem('clamsim.trainee.v1')), name);
      assert.equal((await listed()).trainee, name, '/api/sessions lists the name');
      await p.screenshot({ path: path.join(ARTIFACTS, 'trainee-name.png') });

      // bad names: refused on the page with the reason, nothing sent, nothing changed
      for (const [bad, why] of [['x'.repeat(41), /41 characters long; at most 40/], ['     ', /empty/]]) {
        await p.click('#trainee-change');
        assert.ok(await p.isVisible('#trainee #trainee-input'), 'the form opens in the header');
        await p.fill('#trainee-input', bad);
        await p.click('#trainee-save');
        await waitFor('the reason next to the field', async () => why.test(await p.textContent('#trainee-error')) && p.isVisible('#trainee-error'), { timeoutMs: 2000 });
        if (bad.length > 40) await p.screenshot({ path: path.join(ARTIFACTS, 'trainee-name-refused.png') });
        await p.keyboard.press('Escape');
        assert.equal(await p.isVisible('#trainee-input'), false, 'Escape closes the form');
      }
      // the page sends in order on one socket: a bad name sent on Save would come before
      // the controls it keeps sending after it
      const marked = sent.length;
      await waitFor('more controls sent', () => sent.slice(marked).filter((s) => s.msg.type === 'control').length >= 3,
        { timeoutMs: 10000, everyMs: 50 });
      assert.deepEqual(names(), [name], 'no bad name was sent');
      assert.equal(await p.evaluate(() => localStorage.getItem('clamsim.trainee.v1')), name);
      assert.equal(await p.textContent('#trainee-name'), name);
      assert.equal((await listed()).trainee, name);

      // a reload is a new session: the stored name goes out by itself
      const before = await p.evaluate(() => window.clamsim.session);
      await p.reload({ waitUntil: 'load', timeout: 20000 });
      await connected();
      await waitFor('the stored name acknowledged by the new session', async () => (await state()).state === 'acknowledged', { timeoutMs: 5000 });
      assert.deepEqual(names(sockets), [name], 'sent on the new connection, unasked');
      assert.notEqual(await p.evaluate(() => window.clamsim.session), before);
      assert.equal((await listed()).trainee, name);
      assert.equal(await p.isVisible('#trainee-prompt'), false, 'no card once a name is stored');
      assert.equal(await p.textContent('#trainee-name'), name);
      t.diagnostic(`trainee messages per connection: ${JSON.stringify(sent.filter((s) => s.msg.type === 'trainee'))}`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

});

// Its own server, since the test kills it: no other test sees it down.
describe('the browser client across a server restart', { skip: skip ?? false }, () => {
  let server, browser;

  before(async () => {
    ({ server, browser } = await startServerAndBrowser({ logName: 'server-restart.log', extraArgs: reportArgs() }));
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
  });

  test('recovers after a server restart', async (t) => {
    const consoleErrors = [];
    const expectedErrors = [];  // while the server is down on purpose
    let serverDown = false;
    const context = await browser.newContext({ viewport: { width: 1280, height: 760 } });
    t.after(() => context.close().catch(() => {}));
    await context.addInitScript(VIRTUAL_JOYSTICK);
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') (serverDown ? expectedErrors : consoleErrors).push(m.text()); });
    page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
    page.on('requestfailed', (r) => {
      if (!serverDown) consoleErrors.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
    });
    await page.goto(`${server.url}?screenshots=1`, { waitUntil: 'load', timeout: 20000 });
    await waitFor('the page to say "connected"', async () => (await page.textContent('#hud-connection')) === 'connected', { timeoutMs: 15000 });
    await waitFor('frames', async () => (await hudNumber(page, 'frames')) > 0, { timeoutMs: 15000 });

    serverDown = true;
    await server.stop('SIGKILL');
    await waitFor('the page to notice the lost connection', async () => {
      const level = await page.getAttribute('body', 'data-connection');
      return level === 'warn' || level === 'error';
    }, { timeoutMs: 8000 });
    const text = await waitFor('the page to say the server is unreachable', async () => {
      const banner = await page.textContent('#banner');
      return /unreachable/i.test(banner) && (await page.isVisible('#banner')) ? banner : false;
    }, { timeoutMs: 10000 });
    await page.screenshot({ path: path.join(ARTIFACTS, 'server-down.png') });
    assert.match(text, /Retrying in \d+ s/);
    const opened = await page.evaluate(() => window.clamsim.stats.connections);
    await server.start();
    serverDown = false;
    await waitFor('the page to reconnect', async () => (await page.textContent('#hud-connection')) === 'connected', { timeoutMs: 12000 });
    await waitFor('a fresh session', () => page.evaluate((n) => window.clamsim.stats.connections > n, opened), { timeoutMs: 5000 });
    const a = await waitFor('frames of the new session', async () => {
      const n = await hudNumber(page, 'frames');
      return n > 0 ? n : false;
    }, { timeoutMs: 15000 });
    await waitFor('the new session\'s frames to go on', async () => (await hudNumber(page, 'frames')) > a + 5,
      { timeoutMs: 30000 });
    assert.equal(await page.isVisible('#banner'), false);
    await page.screenshot({ path: path.join(ARTIFACTS, 'reconnected.png') });
    const unexpected = expectedErrors.filter((e) => !/WebSocket|ERR_CONNECTION_REFUSED|Failed to load resource/.test(e));
    assert.deepEqual([...consoleErrors, ...unexpected], []);
  });
});

// A task that ends within seconds: the scenario's own world with the optimum cut to 4 s
// (so the limit, 1.5 x, is 6 s). The report comes, the overlay shows it, Restart starts over.
describe('the end of a training task', { skip: skip ?? false }, () => {
  let server, browser, page;
  const consoleErrors = [];
  const scenarios = path.join(ARTIFACTS, 'scenarios');

  before(async () => {
    writeShortTaskScenario(scenarios, 4);
    rmSync(REPORTS, { recursive: true, force: true });
    ({ server, browser } = await startServerAndBrowser({ logName: 'server-short-task.log',
      extraArgs: ['--scenarios-dir', scenarios, '--world', 'short_task', ...reportArgs()] }));
    page = await openPage(browser, consoleErrors);
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    // a returning trainee: the stored name goes out after the hello and into the report
    await page.addInitScript(() => localStorage.setItem('clamsim.trainee.v1', 'Ada Lovelace'));
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
  });

  test('the task times out, the report overlay shows it, Restart task starts over', async (t) => {
    await page.goto(`${server.url}?screenshots=1`, { waitUntil: 'load', timeout: 20000 });
    await waitFor('the page to say "connected"', async () => (await page.textContent('#hud-connection')) === 'connected', { timeoutMs: 15000 });
    await startTaskClock(page);
    const report = await waitFor('the report', () => page.evaluate(() => window.clamsim.report), { timeoutMs: 20000, everyMs: 200 });
    assert.equal(report.type, 'report');
    await waitFor('the report overlay', () => page.isVisible('#report .report-card'), { timeoutMs: 2000 });
    const outcome = await page.textContent('#report-outcome');
    assert.match(outcome, /timed out|not completed/i);
    assert.equal(report.report.trainee, 'Ada Lovelace', 'the report names the trainee');
    assert.equal(await page.textContent('#report-trainee'), 'Ada Lovelace');
    assert.match(await page.textContent('#report .report-summary'), /Time\s*0:0[5-7]/);
    assert.equal(await page.locator('#report .report-penalties tbody tr').count(), 7, 'each penalty with its count and points');
    assert.ok(await page.isVisible('#report .report-timeline, #report p.hint'));
    const d = await debug(page);
    assert.equal(d.score.finished, true);
    assert.equal(d.score.completed, false);
    assert.equal(d.score.time_points, 0, 'no time points left at the limit');
    await page.screenshot({ path: path.join(ARTIFACTS, 'report.png') });
    t.diagnostic(`report: ${outcome}; ${JSON.stringify(report.report).length} bytes of JSON`);
    if (serverHas('--report-dir')) {
      const files = existsSync(REPORTS) ? readdirSync(REPORTS).filter((f) => f.endsWith('.json')) : [];
      assert.ok(files.length >= 1, `a report file in ${REPORTS}`);
    }

    await page.click('#report-restart');
    await waitFor('the overlay to close', async () => !(await page.isVisible('#report .report-card')), { timeoutMs: 3000 });
    await waitFor('a fresh attempt', async () => {
      const x = await debug(page);
      return x.restarts.acknowledged === 1 && !x.score.finished && x.score.elapsed_s < 1.5;
    }, { timeoutMs: 3000, everyMs: 50 });
    assert.deepEqual(consoleErrors, []);
  });
});
