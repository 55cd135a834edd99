// A newcomer's first hour in the browser against the real clamsim-server and Chromium:
// the layout at three ordinary screen sizes (boxes measured, screenshots saved), and the
// first lesson (offered by the dam task, shown with its keys, a step advanced by the
// server's own check, skipped back to the dam task).
// Needs CLAMSIM_SERVER (the lead sets it from CMake) and Debian's Chromium; skips otherwise.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { skipReason, freePort, waitFor, ServerProcess, launchBrowser, VIRTUAL_JOYSTICK, ARTIFACTS, showView } from './harness.js';

const skip = skipReason();
if (skip) {
  console.log(`e2e skipped: ${skip}`);
  test('first lesson and layout against clamsim-server', { skip }, () => {});
}

const SIZES = [[1024, 600], [1366, 768], [1920, 1080]];
const box = (page, sel) => page.evaluate((s) => document.querySelector(s)?.getBoundingClientRect().toJSON() ?? null, sel);
const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const inside = (a, b, slack = 0.5) => a.left >= b.left - slack && a.right <= b.right + slack && a.top >= b.top - slack && a.bottom <= b.bottom + slack;

describe('first lesson and layout against clamsim-server', { skip: skip ?? false }, () => {
  let server, browser;
  const errors = [];

  async function open(width, height, query = '') {
    const context = await browser.newContext({ viewport: { width, height } });
    await context.addInitScript(VIRTUAL_JOYSTICK);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    await page.goto(`${server.url}${query}`);
    await waitFor('frames', () => page.evaluate(() => (window.clamsim?.stats.frames ?? 0) > 5), { timeoutMs: 20000 });
    return { page, context };
  }

  before(async () => {
    server = new ServerProcess({ httpPort: await freePort(), corbaPort: await freePort(), logName: 'lesson-server.log',
      extraArgs: ['--report-dir', path.join(ARTIFACTS, 'reports')] });
    process.once('exit', () => server.killNow());
    await server.start();
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, []);
  });

  for (const [w, h] of SIZES) {
    test(`layout at ${w}x${h}: HUD whole, score panel off the middle, name card in one quadrant, key hint one row`, async (t) => {
      const { page, context } = await open(w, h);
      try {
        await waitFor('the score panel', () => page.isVisible('#score'));
        const viewport = { left: 0, top: 0, right: w, bottom: h };
        // the HUD: inside the viewport, and nothing of it cut off (no hidden overflow)
        const hud = await box(page, '#hud');
        assert.ok(inside(hud, viewport), `HUD ${JSON.stringify(hud)}`);
        const fits = await page.evaluate(() => { const e = document.getElementById('hud'); return e.scrollHeight <= e.clientHeight + 1; });
        assert.ok(fits, 'the HUD fits without scrolling');
        const last = await box(page, '#hud > :last-child');
        assert.ok(last.bottom <= h + 0.5, `the HUD's last section ends at ${last.bottom}, the screen at ${h}`);
        // the score panel stays off the middle of the main view (the crane and the truck)
        const stage = await box(page, '#stage');
        const middle = { left: stage.left + stage.width / 4, right: stage.right - stage.width / 4,
          top: stage.top + stage.height / 4, bottom: stage.bottom - stage.height / 4 };
        const score = await box(page, '#score');
        assert.ok(!overlap(score, middle), `score ${JSON.stringify(score)} overlaps the middle ${JSON.stringify(middle)}`);
        assert.ok(inside(score, stage), 'the score panel is on the stage');
        await page.screenshot({ path: path.join(ARTIFACTS, `layout-${w}x${h}-full.png`) });
        // Total: the name card stays inside one quadrant, the score panel in another
        await showView(page, 'total');
        const card = await box(page, '#trainee-prompt');
        const q = (col, row) => ({ left: stage.left + (col * stage.width) / 2, right: stage.left + ((col + 1) * stage.width) / 2,
          top: stage.top + (row * stage.height) / 2, bottom: stage.top + ((row + 1) * stage.height) / 2 });
        const quads = [q(0, 0), q(1, 0), q(0, 1), q(1, 1)];
        assert.ok(quads.some((r) => inside(card, r)), `name card ${JSON.stringify(card)} spans quadrants`);
        const totalScore = await box(page, '#score');
        assert.ok(quads.some((r) => inside(totalScore, r)), 'the score panel in one quadrant');
        await page.screenshot({ path: path.join(ARTIFACTS, `layout-${w}x${h}-total.png`) });
        // saving a name: the key hint stays one row and the view does not move
        const hintBefore = await box(page, '#keys-hint');
        const lineHeight = await page.evaluate(() => parseFloat(getComputedStyle(document.getElementById('keys-hint')).lineHeight) || 16);
        await page.fill('#trainee-prompt #trainee-input', 'Augusta Ada King-Noel');
        await page.click('#trainee-prompt #trainee-save');
        await waitFor('the name acknowledged', () => page.evaluate(() => window.clamsim.trainee.state === 'acknowledged'));
        const hint = await box(page, '#keys-hint');
        const stageAfter = await box(page, '#stage');
        assert.ok(hint.height < 1.6 * lineHeight, `key hint ${hint.height} px high: more than one row`);
        assert.equal(hint.height, hintBefore.height);
        assert.equal(stageAfter.top, stage.top, 'the view moved when the name was saved');
        await showView(page, 'full');
        await page.screenshot({ path: path.join(ARTIFACTS, `layout-${w}x${h}-named.png`) });
        t.diagnostic(`${w}x${h}: stage ${stage.width}x${stage.height} at y ${stage.top}, HUD ${hud.width} wide, score ${score.width}x${score.height}`);
      } finally {
        await context.close();
      }
    });
  }

  test('the dam task offers the first lesson; it starts, shows its keys, a step advances on the server, skip returns', async (t) => {
    const { page, context } = await open(1366, 768);
    try {
      await waitFor('the lesson offer', () => page.isVisible('#lesson-offer'));
      assert.equal(await page.isVisible('#lesson'), false);
      await page.click('#lesson-start');
      await waitFor('the lesson world', () => page.evaluate(() => window.clamsim.debug().lesson.progress !== null));
      assert.equal(await page.evaluate(() => window.clamsim.scenario), 'first_lesson');
      assert.ok(await page.isVisible('#lesson'));
      assert.equal(await page.isVisible('#score'), false, 'a lesson has no score');
      assert.match(await page.textContent('#lesson-counter'), /step 1 of 6/);
      // the keys come from input.js's keyLabel: lowering pays both ropes out (A + D)
      assert.match(await page.textContent('#lesson-hints'), /lower:\s*A \+ D/);
      await page.screenshot({ path: path.join(ARTIFACTS, 'lesson-step1.png') });
      // do what the hint says; the server sees the clam go down and moves on
      await page.keyboard.down('KeyA');
      await page.keyboard.down('KeyD');
      try {
        await waitFor('step 2', () => page.evaluate(() => window.clamsim.debug().lesson.progress?.step >= 1), { timeoutMs: 30000 });
      } finally {
        await page.keyboard.up('KeyA');
        await page.keyboard.up('KeyD');
      }
      assert.match(await page.textContent('#lesson-counter'), /step 2 of 6/);
      assert.match(await page.textContent('#lesson-hints'), /open:\s*Shift \+ Q \+ D/);   // taught at half speed
      assert.equal(await page.getAttribute('#lesson li:first-child', 'data-state'), 'done');
      await page.screenshot({ path: path.join(ARTIFACTS, 'lesson-step2.png') });
      // the instructor sees where the trainee is
      const sessions = await (await fetch(`${server.url}api/sessions`)).json();
      const id = await page.evaluate(() => window.clamsim.session);
      const mine = sessions.sessions.find((s) => s.id === id);
      assert.deepEqual(mine.lesson, { step: 1, steps: 6, finished: false });
      assert.equal(mine.world, 'first_lesson');
      // skip: back to the dam task, and the offer is not made again
      await page.click('#lesson-skip');
      await waitFor('the dam task', () => page.evaluate(() => window.clamsim.debug().score?.enabled === true));
      assert.equal(await page.evaluate(() => window.clamsim.scenario), null);
      assert.equal(await page.isVisible('#lesson'), false);
      assert.equal(await page.isVisible('#lesson-offer'), false);
      assert.equal(await page.evaluate(() => localStorage.getItem('clamsim.lesson.v1')), 'skipped');
      t.diagnostic('lesson: offered, started, step 1 done by the keys it showed, skipped back to the dam task');
    } finally {
      await context.close();
    }
  });

  test('the rack/gate badge: amber while rubbing, red for a counted hit, the server\'s rule in its tooltip', async (t) => {
    const { page, context } = await open(1366, 768);
    try {
      assert.deepEqual(await page.evaluate(() => window.clamsim.debug().hitRule), { speed_m_per_s: 0.2, points: 10 });
      // both winches paying out lower the open clam into the bay, against the rack
      await page.keyboard.down('KeyA');
      await page.keyboard.down('KeyD');
      let badge;
      try {
        await waitFor('the rack/gate badge', async () => {
          badge = await page.evaluate(() => {
            const b = document.querySelector('.warning[data-id="contact"]');
            return b && { state: b.dataset.state, level: b.dataset.level, title: b.title, text: b.textContent };
          });
          return badge;
        }, { timeoutMs: 30000 });
        await page.screenshot({ path: path.join(ARTIFACTS, `contact-${badge.state}.png`) });
      } finally {
        await page.keyboard.up('KeyA');
        await page.keyboard.up('KeyD');
      }
      assert.equal(badge.level, badge.state === 'hit' ? 'danger' : 'warn');
      assert.match(badge.text, badge.state === 'hit' ? /penalty/ : /no penalty/);
      assert.match(badge.title, /slower than 0\.2 m\/s, is allowed/);
      assert.match(badge.title, /costs 10 points/);
      t.diagnostic(`badge: ${badge.state} (${badge.level}): ${badge.text}`);
    } finally {
      await context.close();
    }
  });
});
