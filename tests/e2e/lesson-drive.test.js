// A newcomer takes the first lesson in Chromium against the real clamsim-server, from the
// screen alone: each step's keys are read from the lesson panel (never written here), the
// moment to let go from the lesson panel and the HUD, at human speed (keys at full or half
// speed, no key change sooner than 0.3 s of simulated time after the last). The lesson must
// end with no setback and no slack rope. Then the same lesson's open step done the careless
// way (full speed, held past the stop) shows on screen what a slack rope is, why it matters
// and how to avoid it (web/data/advice.json). Screenshots of each step go to
// artifacts/first-day/, or where CLAMSIM_FIGURES says (docs/figures/first-day/ for the docs).
// Needs CLAMSIM_SERVER and Debian's Chromium; skips otherwise.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { skipReason, waitFor, startServerAndBrowser, ARTIFACTS, REPO, axeAtSizes, keycaps, humanHands } from './harness.js';

const FIGURES = path.resolve(REPO, process.env.CLAMSIM_FIGURES ?? path.join(ARTIFACTS, 'first-day'));
const MIN_CHANGE_S = 0.3;   // a human's quickest key change, in simulated seconds

const skip = skipReason();
if (skip) {
  console.log(`e2e skipped: ${skip}`);
  test('the first lesson from the screen alone against clamsim-server', { skip }, () => {});
}

// Everything the trainee looks at: the lesson panel and the HUD's values.
function readScreen(page) {
  return page.evaluate(() => {
    const text = (sel) => document.querySelector(sel)?.textContent.trim() ?? '';
    const num = (sel) => parseFloat(text(sel));
    const visible = (sel) => { const e = document.querySelector(sel); return Boolean(e && e.offsetParent !== null); };
    return {
      counter: text('#lesson-counter'),
      goal: text('#lesson-goal'),
      hints: [...document.querySelectorAll('#lesson-hints .lesson-hint')].map((h) => ({
        does: h.querySelector('.does')?.textContent.replace(/:$/, '').trim() ?? '',
        keys: h.querySelector('kbd')?.textContent.split('+').map((k) => k.trim()).filter(Boolean) ?? [],
      })),
      bar: parseFloat(document.querySelector('#lesson .lesson-fill')?.style.width ?? '0') || 0,
      note: text('#lesson .lesson-note'),
      finished: document.getElementById('lesson')?.dataset.finished === 'true',
      time: num('#hud-time'),
      opening: num('#hud-opening'),
      clamTipM: num('#hud-clam_tip'),
      jaws: text('#hud-geo-plain'),
      loadState: text('#hud-loadstate-plain'),
      tension2Kn: num('#hud-tension2'),
      contactKn: num('#hud-contact'),
      loadKg: num('#hud-load'),
      slackBadge: visible('.warning[data-id="slack"]'),
      advice: visible('.warning[data-id="advice"]') ? text('.warning[data-id="advice"]') : '',
    };
  });
}

describe('the first lesson from the screen alone', { skip: skip ?? false }, () => {
  let server, browser;
  const errors = [];
  const caps = keycaps();

  before(async () => {
    ({ server, browser } = await startServerAndBrowser({ logName: 'lesson-drive-server.log' }));
    mkdirSync(FIGURES, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, []);
  });

  // The dam task's page, the lesson taken from its offer card as a newcomer would.
  async function startLesson() {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    await page.goto(server.url);
    await waitFor('the lesson offer', () => page.isVisible('#lesson-offer'), { timeoutMs: 20000 });
    await page.click('#lesson-start');
    await waitFor('the lesson panel at step 1', async () => /step 1 of/.test((await readScreen(page)).counter), { timeoutMs: 20000 });
    return { page, context };
  }

  // A trainee's hands (the harness's, at MIN_CHANGE_S) pressing the keys a hint of the panel
  // shows; `seen` gathers every screen read.
  function hands(page, seen) {
    const h = humanHands(page, async () => {
      const s = await readScreen(page);
      seen.push(s);
      return s;
    }, { minChangeS: MIN_CHANGE_S });
    return {
      look: h.look,
      rest: h.rest,
      // Holds the keys of the hint `does` (as the panel shows them now) until `done(screen)`;
      // the screen when it let go.
      async hold(does, done, { timeoutMs = 60000 } = {}) {
        const s0 = await h.look();
        const hint = s0.hints.find((x) => x.does === does);
        assert.ok(hint, `the panel shows no "${does}" (it shows ${JSON.stringify(s0.hints)})`);
        const keys = hint.keys.map((k) => {
          assert.ok(caps[k], `no key has the cap "${k}"`);
          return caps[k];
        });
        return h.hold(keys, done, { timeoutMs, what: `"${does}" (${hint.keys.join(' + ')})` });
      },
    };
  }

  // "let go as Clam to arm tip on the HUD passes 4.0 m": the 4.0 the goal gives
  const letGoAtM = (goal) => {
    const m = Number(/passes ([\d.]+) m\b/.exec(goal)?.[1]);
    assert.ok(m > 0, `the step says when to let go: ${goal}`);
    return m;
  };
  const stepOf = (s) => Number(/step (\d+) of/.exec(s.counter)?.[1] ?? (s.finished ? Infinity : 0));

  test('every step done with the keys it shows, letting go as the screen says: no setback, no slack rope', async (t) => {
    const { page, context } = await startLesson();
    const seen = [];
    const log = [];
    try {
      const h = hands(page, seen);
      const shot = (n) => page.screenshot({ path: path.join(FIGURES, `lesson-step-${n}.png`) });
      const advanced = (from) => (s) => s.finished || stepOf(s) > from;
      let s = await h.look();
      // a step is done when the panel moves on; each is taken as its panel shows it
      while (!s.finished) {
        const n = stepOf(s);
        const does = s.hints.map((x) => x.does);
        const goal = s.goal;
        log.push(`step ${n}: ${s.goal} [${s.hints.map((x) => `${x.does}: ${x.keys.join('+')}`).join('; ')}]`);
        await h.rest(0.5);
        if (does.length === 1 && does[0] !== 'open') {
          // one move (lower, lift, swing): until the panel moves on
          s = await h.hold(does[0], advanced(n));
          await shot(n);
          // after a swing, hands off while the log's sway dies out (the goal says so)
          if (/sway/.test(goal)) await h.rest(3.0);
        } else if (does.length === 1) {
          // open: let go as the HUD's clam opening passes what the goal says
          const at = Number(/passes (\d+) deg/.exec(s.goal)?.[1]);
          assert.ok(at > 0, `the open step says when to let go: ${s.goal}`);
          s = await h.hold('open', (x) => advanced(n)(x) || x.opening >= at);
          await h.rest(1.0);
          await shot(n);
        } else if (does.includes('close')) {
          // lower until the HUD's clam-to-tip passes what the goal says, then close until the bar is full
          const at = letGoAtM(s.goal);
          s = await h.hold('lower', (x) => x.clamTipM >= at || advanced(n)(x));
          await h.rest(1.0);
          await shot(n);
          if (!advanced(n)(await h.look())) s = await h.hold('close', advanced(n));
        } else {
          // set down: lower until the HUD's clam-to-tip passes what the goal says, then open
          const at = letGoAtM(s.goal);
          s = await h.hold('lower', (x) => x.clamTipM >= at || advanced(n)(x));
          await h.rest(1.5);
          await shot(n);
          if (!advanced(n)(await h.look())) s = await h.hold('open', (x) => advanced(n)(x) || /empty/.test(x.loadState));
        }
        // the panel may take a frame to move on after the key is let go
        await h.rest(1.0);
        s = await h.look();
        log.push(`  after: t ${s.time} s, clam to tip ${s.clamTipM} m, opening ${s.opening} deg, cable 2 ${s.tension2Kn} kN, load ${s.loadKg} kg, ${s.counter}`);
        if (!s.finished) assert.ok(stepOf(s) > n, `step ${n} not done after its move: ${JSON.stringify(s)}`);
      }
      await shot('done');
      const explained = seen.filter((x) => x.advice);
      assert.deepEqual(explained.slice(0, 1), [], 'no penalty event explained on screen');
      const badge = seen.filter((x) => x.slackBadge).length;
      assert.ok(seen.every((x) => x.note === ''), 'the log never slipped out (no setback)');
      // the server agrees
      const d = await page.evaluate(() => window.clamsim.debug());
      assert.equal(d.lesson.progress.finished, true);
      assert.equal(d.lesson.progress.setbacks, 0);
      assert.equal(d.events.slack_cables, 0, 'no slack event counted');
      t.diagnostic(`the slack badge (a rope loose, under the event's 0.5 m) was up in ${badge} of ${seen.length} looks`);
      t.diagnostic(`lesson done in ${d.lesson.progress.elapsed_s.toFixed(1)} s of simulated time`);
    } finally {
      for (const l of log) t.diagnostic(l);
      await context.close();
    }
  });

  test('opening at full speed past the stop: the screen says what a slack rope is, why it matters, how to avoid it', async (t) => {
    const { page, context } = await startLesson();
    try {
      const h = hands(page, []);
      await h.hold('lower', (x) => stepOf(x) > 1);
      // the panel's open keys without the half-speed key, held on after the jaws are open
      const s = await h.look();
      const open = s.hints.find((x) => x.does === 'open').keys.filter((k) => caps[k] !== 'Shift').map((k) => caps[k]);
      for (const k of open) await page.keyboard.down(k);
      try {
        await waitFor('the explanation of a slack rope', async () => (await h.look()).advice, { timeoutMs: 30000, everyMs: 50 });
      } finally {
        for (const k of open) await page.keyboard.up(k);
      }
      const card = await page.evaluate(() => {
        const b = document.querySelector('.warning[data-id="advice"]');
        return { title: b.querySelector('.warning-text').textContent,
          parts: [...b.querySelectorAll('dt')].map((e) => e.textContent),
          text: [...b.querySelectorAll('dd')].map((e) => e.textContent) };
      });
      const advice = JSON.parse(readFileSync(path.join(REPO, 'web/data/advice.json'), 'utf8')).events.slack_cable_2;
      // the figure the card names is the model's (cable 2 is the aux hoist), not a copy
      const model = JSON.parse(readFileSync(path.join(REPO, 'models/t250.json'), 'utf8'));
      const margin = model.hydraulics.winches.aux_hoist.slack_margin_m.value;
      const filled = (text) => text.replaceAll('{slack_margin_m}', `${margin} m`);
      assert.equal(card.title, filled(advice.title));
      assert.deepEqual(card.parts, ['What happened', 'Why it matters', 'How to avoid it']);
      assert.deepEqual(card.text, [advice.what, advice.why, advice.avoid].map(filled));
      assert.match(card.text[0], new RegExp(`more than ${margin} m`));
      const d = await page.evaluate(() => window.clamsim.debug());
      assert.ok(d.events.slack_cables >= 1, 'the server counted the slack rope');
      await page.screenshot({ path: path.join(FIGURES, 'lesson-slack-advice.png') });
      // the lesson panel's list of steps and the explanation card, as a trainee meets them
      assert.deepEqual(await axeAtSizes(page, 'lesson panel with the slack card'), []);
      t.diagnostic(`on screen: ${card.title}`);
    } finally {
      await context.close();
    }
  });
});
