// A newcomer's first attempt at the dam task in Chromium against the real clamsim-server: a
// name given, the lesson declined (taken before), then the task driven with the browser's
// keys only (full or half speed, no key change sooner than 0.3 s of simulated time after the
// last), reading only the screen: the HUD's values and where the grab and the logs are drawn.
// The moves are the first lesson's, joined into the task, as tests/training/first_attempt_test.cc
// does them on the model alone. The attempt must finish, every log in the truck, with a
// positive score and no rack strike; screenshots of its states go to artifacts/first-attempt/
// (or where CLAMSIM_FIGURES says: docs/figures/first-attempt/ for the docs). Runs in real
// time, about five minutes. Needs CLAMSIM_SERVER and Debian's Chromium; skips otherwise.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { skipReason, waitFor, startServerAndBrowser, ARTIFACTS, REPO, axeAtSizes, keycaps, humanHands } from './harness.js';

const FIGURES = path.resolve(REPO, process.env.CLAMSIM_FIGURES ?? path.join(ARTIFACTS, 'first-attempt'));
const CLOSED_ON_KN = 6;   // cable 2's pull with the jaws squeezing a log

const skip = skipReason();
if (skip) {
  console.log(`e2e skipped: ${skip}`);
  test('a first attempt at the dam task from the screen alone against clamsim-server', { skip }, () => {});
}

// The screen: the HUD's values, and the grab and the logs where the scene draws them.
function readScreen(page) {
  return page.evaluate(() => {
    const num = (id) => parseFloat(document.getElementById(id)?.textContent ?? '');
    const text = (id) => document.getElementById(id)?.textContent.trim() ?? '';
    const f = window.clamsim.frame;
    return {
      time: num('hud-time'),
      swing: num('hud-swing'),
      boom: num('hud-boom'),
      telescope: num('hud-telescope'),
      clamTip: num('hud-clam_tip'),
      opening: num('hud-opening'),
      tension2: num('hud-tension2'),
      contactKn: num('hud-contact'),
      loadState: text('hud-loadstate-plain'),
      a: f?.point_a_m ?? null,
      c: f?.point_c_m ?? null,
      loads: (f?.loads ?? []).map((l) => ({ id: l.id, at: l.position_m })),
      held: f?.held_load ?? null,
    };
  });
}

const radius = (p) => Math.hypot(p[0], p[1]);
const bearing = (p) => (Math.atan2(p[1], p[0]) * 180) / Math.PI;
const wrap180 = (deg) => deg - 360 * Math.round(deg / 360);
const gripping = (s) => /closed on a load/i.test(s.loadState);

describe('a first attempt at the dam task from the screen alone', { skip: skip ?? false }, () => {
  let server, browser;
  const errors = [];
  const caps = keycaps();
  const key = (signal, dir) => caps.signal[signal][dir > 0 ? 'plus' : 'minus'];
  const half = (...keys) => [caps.half, ...keys];

  before(async () => {
    ({ server, browser } = await startServerAndBrowser({ logName: 'first-attempt-server.log' }));
    mkdirSync(FIGURES, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, []);
  });

  test('the lesson\'s moves, key by key, clear the three logs with a positive score', async (t) => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    const shot = (name) => page.screenshot({ path: path.join(FIGURES, `${name}.png`) });
    const log = [];
    try {
      await page.goto(server.url);
      await waitFor('the name prompt and the lesson offer', async () =>
        (await page.isVisible('#trainee-prompt')) && page.isVisible('#lesson-offer'), { timeoutMs: 20000 });
      await page.fill('#trainee-prompt #trainee-input', 'Ada');
      await page.click('#trainee-prompt #trainee-save');
      await page.click('#lesson-no');
      await waitFor('a frame on the screen', async () => (await readScreen(page)).a !== null, { timeoutMs: 20000 });
      const task = await page.evaluate(() => window.clamsim.debug().score);
      assert.equal(task.running, false, 'the clock waits for the first control');
      const truck = await page.evaluate(() => window.clamsim.workPoints().truck);
      const taskIds = await page.evaluate(() => window.clamsim.task?.loads ?? null);
      assert.equal(taskIds?.length, 3, 'the task names its three logs');
      const h = humanHands(page, () => readScreen(page));
      const at = (s, id) => s.loads.find((l) => l.id === id)?.at;
      const note = async (what) => {
        const s = await h.look();
        log.push(`${s.time.toFixed(1)} s ${what}: swing ${s.swing}, boom ${s.boom}, telescope ${s.telescope}, opening ${s.opening}, held ${s.held}`);
      };

      // set up: the grab down 1.6 m (the telescope draws the ropes in as it runs out), then
      // out to 14.1 m, from where the boom alone reaches the logs and the truck
      await h.hold(half(key('cable1', -1), key('cable2', -1)), (s) => s.clamTip > 3.6);
      await h.hold([key('telescope', +1)], (s) => s.telescope > 14.05);
      await h.rest(1);
      await shot('attempt-set-up');

      // swings until the boom points at bearing(): full speed while far, half speed near
      const swingTo = async (target) => {
        for (let i = 0; i < 4; i++) {
          const e0 = wrap180(target(await h.look()) - (await h.look()).swing);
          if (Math.abs(e0) <= 1) break;
          const d = e0 > 0 ? +1 : -1;
          const err = (s) => wrap180(target(s) - s.swing);
          if (Math.abs(e0) > 20) await h.hold([key('swing', d)], (s) => d * err(s) < 14);
          else await h.hold(half(key('swing', d)), (s) => d * err(s) < 3.5);
          await h.rest(1.5);
        }
      };

      const clearOne = async (id) => {
        const logAt = (s) => at(s, id);
        await swingTo((s) => bearing(logAt(s)));
        const reach = (s) => radius(s.a) - radius(logAt(s));
        let s = await h.look();
        if (reach(s) < -0.1) await h.hold([key('boom', -1)], (x) => reach(x) > -0.1);
        else if (reach(s) > 0.1) await h.hold(half(key('boom', +1)), (x) => reach(x) < 0.05);
        await h.rest(2);
        // the jaws open to the lesson's 60 deg: let go at 50, the winches carry them on
        s = await h.look();
        if (s.opening < 50) await h.hold(half(key('cable1', +1), key('cable2', -1)), (x) => x.opening > 50);
        else if (s.opening > 75) await h.hold(half(key('cable2', +1)), (x) => x.opening < 70);
        // down into the water beside the log: quickly to 2.5 m above it, then at half speed
        // until the hinge C is half a metre over its middle
        const over = (x) => x.c[2] - logAt(x)[2];
        await h.hold([key('cable1', -1), key('cable2', -1)], (x) => over(x) < 2.5 || x.contactKn > 3);
        await h.hold(half(key('cable1', -1), key('cable2', -1)), (x) => over(x) < 0.5 || x.contactKn > 3);
        await h.rest(1.5);
        await shot('attempt-around-a-log');
        // close on cable 2 until the HUD says the jaws are on a load and cable 2 squeezes it
        await h.hold(half(key('cable2', +1)), (x) => (gripping(x) && x.tension2 > CLOSED_ON_KN) || x.opening < 3,
          { timeoutMs: 30000 });
        await h.rest(1);
        // lift on both, cable 2's key first (cable 1 alone pulls the jaws open): cable 1 follows with its slack
        await h.hold(half(key('cable2', +1), key('cable1', +1)), (x) => x.clamTip < 3.0);
        await h.rest(1);
        s = await h.look();
        await note(`lifted ${id}`);
        if (s.held === null) return false;
        const held = s.held;
        // a little more slack on cable 1 before booming up: the closing rope carries the log
        await h.press(half(key('cable1', -1)));
        await h.rest(0.6);
        await h.press([]);
        await h.rest(1);
        await h.hold(half(key('boom', +1)), (x) => x.boom > 49.5 || x.held === null, { timeoutMs: 90000 });
        await swingTo(() => bearing(truck));
        await h.rest(3);
        await shot('attempt-over-the-truck');
        // down into the load space, at half speed for the last 2 m, and let go
        const floorZ = truck[2] - 1.0;   // the bed's sides stand 1 m over its floor
        const loadZ = (x) => at(x, held)[2];
        await h.hold([key('cable1', -1), key('cable2', -1)], (x) => loadZ(x) < floorZ + 2.8);
        await h.hold(half(key('cable1', -1), key('cable2', -1)), (x) => loadZ(x) < floorZ + 1.2);
        await h.rest(1);
        await h.hold(half(key('cable1', +1), key('cable2', -1)), (x) => x.held === null && x.opening > 40);
        await h.rest(1);
        await h.hold(half(key('cable2', +1), key('cable1', +1)), (x) => x.clamTip < 3.0);
        await h.rest(1);
        await note(`delivered ${id}`);
        return true;
      };

      for (let tries = 0; tries < 8; tries++) {
        const s = await h.look();
        const afloat = s.loads.filter((l) => taskIds.includes(l.id) && l.at[2] < 0 && l.at[2] > -4);
        if (afloat.length === 0) break;
        afloat.sort((p, q) => radius(q.at) - radius(p.at));
        await clearOne(afloat[0].id);
        if ((await page.evaluate(() => window.clamsim.debug().score)).finished) break;
      }
      await waitFor('the end of the task', async () => (await page.evaluate(() => window.clamsim.debug().score)).finished,
        { timeoutMs: 30000 });
      await waitFor('the report card', async () => page.isVisible('#report-outcome'), { timeoutMs: 10000 });
      await shot('attempt-report');
      const score = await page.evaluate(() => window.clamsim.debug().score);
      t.diagnostic(`${score.completed ? 'completed' : 'not completed'} in ${score.elapsed_s.toFixed(1)} s: `
        + `${score.time_points.toFixed(1)} time points - ${score.penalty_points.toFixed(1)} penalty points = ${score.total.toFixed(1)} `
        + `(rack/gate ${score.rack_gate_hits}, structure ${score.structure_hits}, slack ${score.slack_cables}, `
        + `overload ${score.overloads}, dropped ${score.dropped_loads})`);
      assert.equal(score.completed, true, 'every log in the truck');
      assert.equal(score.delivered, score.required);
      assert.ok(score.total > 0, `a positive score: ${score.total}`);
      // the jaws' clearance of the rack is the layout's, not luck; a log slipping out of a
      // first close can happen to a newcomer and is scored, not forbidden
      assert.equal(score.rack_gate_hits, 0, 'the open jaws kept clear of the rack');
      // the report card a newcomer meets at the end, as axe-core sees it
      assert.deepEqual(await axeAtSizes(page, 'the report card of a first attempt'), []);
    } finally {
      for (const l of log) t.diagnostic(l);
      await context.close();
    }
  });
});
