// A new user's first day in Chromium at 1366x768 against the real clamsim-server: the task
// clock waits for the first moved control (not for the name, the lesson offer or the help),
// practice without the clock, the offer card beside the load moment gauge, the views framed
// for the work (Top, Window, Total) and the swing angle in (-180, 180]; the instructor's
// overview and watch tab at 1366 px, the wording of a hand-over by the first account, the
// report card's buttons at 768 px, the replay banner beside the badges, a take-over page
// without the name prompt; and axe-core (no serious or critical violation) on each of those
// states at 1366x768 and 1920x1080. The views' screenshots go to artifacts/first-day/, or
// where CLAMSIM_FIGURES says (docs/figures/first-day/ to renew the docs' figures).
// Needs CLAMSIM_SERVER and Debian's Chromium; skips otherwise.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  skipReason, freePort, waitFor, ServerProcess, drawings, simTime, simSeconds, showView, launchBrowser, ARTIFACTS, REPO, createAccount, serverHas,
  writeShortTaskScenario, startTaskClock, axeAtSizes,
} from './harness.js';

const PASSWORD = 'e2e first day password';
const FIGURES = path.resolve(REPO, process.env.CLAMSIM_FIGURES ?? path.join(ARTIFACTS, 'first-day'));

const skip = skipReason() ?? (serverHas('--record-dir') ? null : 'the server has no --record-dir (recording)');
if (skip) {
  console.log(`e2e skipped: ${skip}`);
  test('a first day in the browser against clamsim-server', { skip }, () => {});
}

const box = (page, sel) => page.evaluate((s) => {
  const e = document.querySelector(s);
  if (!e || e.offsetParent === null) return null;
  return e.getBoundingClientRect().toJSON();
}, sel);
const overlap = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
const inside = (a, b, slack = 0.5) => a.left >= b.left - slack && a.right <= b.right + slack && a.top >= b.top - slack && a.bottom <= b.bottom + slack;
const debug = (page) => page.evaluate(() => window.clamsim.debug());


describe('a first day in the browser', { skip: skip ?? false }, () => {
  let server, browser;
  const errors = [];
  const axeFound = [];
  const accounts = path.join(ARTIFACTS, 'state-first-day', 'accounts.json');
  const recordings = path.join(ARTIFACTS, 'recordings-first-day');
  const reports = path.join(ARTIFACTS, 'reports-first-day');

  async function newPage(width = 1366, height = 768) {
    // axe-core goes in as an inline script: past the page's Content-Security-Policy
    const context = await browser.newContext({ viewport: { width, height }, bypassCSP: true });
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    return page;
  }
  async function openTrainee(query = '') {
    const page = await newPage();
    await page.goto(`${server.url}${query}`, { waitUntil: 'load', timeout: 20000 });
    await waitFor('frames', () => page.evaluate(() => (window.clamsim?.stats.frames ?? 0) > 5), { timeoutMs: 20000 });
    return page;
  }

  before(async () => {
    // the first account's own name: "instructor" (what a fresh install makes)
    createAccount(accounts, 'instructor', PASSWORD);
    for (const d of [recordings, reports]) {
      rmSync(d, { recursive: true, force: true });
      mkdirSync(d, { recursive: true });
    }
    mkdirSync(FIGURES, { recursive: true });
    server = new ServerProcess({ httpPort: await freePort(), corbaPort: await freePort(), logName: 'server-first-day.log',
      extraArgs: ['--accounts', accounts, '--record', 'yes', '--record-dir', recordings, '--report-dir', reports] });
    process.once('exit', () => server.killNow());
    await server.start();
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
    assert.deepEqual(errors, []);
    assert.deepEqual(axeFound, []);
  });

  test('the clock waits under the name prompt, the lesson offer and the help; it starts at the first control', async (t) => {
    const page = await openTrainee();
    await waitFor('the name prompt and the lesson offer', async () => (await page.isVisible('#trainee-prompt')) && page.isVisible('#lesson-offer'));
    await waitFor('the score panel', () => page.isVisible('#score'));
    assert.match(await page.textContent('#score-ready'), /READY — move a control to start/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'first-day-offer.png') });
    // the offer card beside, never over, the load moment gauge
    const offer = await box(page, '#lesson-offer'), lmi = await box(page, '#lmi');
    assert.ok(lmi && offer, 'both on screen');
    assert.ok(!overlap(offer, lmi), `offer ${JSON.stringify(offer)} over the gauge ${JSON.stringify(lmi)}`);
    axeFound.push(...await axeAtSizes(page, 'lesson offer'));
    // the help open: the clock still waits
    await page.click('#open-help');
    await waitFor('the help', () => page.evaluate(() => document.getElementById('help').open));
    const s0 = (await debug(page)).score;
    await simSeconds(page, 1.5, 'with the help open');
    const s1 = (await debug(page)).score;
    assert.equal(s1.running, false, 'not running under the prompt, the offer and the help');
    assert.equal(s1.elapsed_s, 0);
    assert.equal(s0.elapsed_s, 0);
    await page.keyboard.press('Escape');
    await waitFor('the help closed', () => page.evaluate(() => !document.getElementById('help').open));
    await page.fill('#trainee-prompt #trainee-input', 'Grace');
    await page.click('#trainee-prompt #trainee-save');
    await page.click('#lesson-no');
    await waitFor('the name acknowledged by the session and the offer closed', async () =>
      (await page.evaluate(() => window.clamsim.trainee.state)) === 'acknowledged' && !(await page.isVisible('#lesson-offer')));
    await simSeconds(page, 0.8, 'after the name and the lesson choice');
    assert.equal((await debug(page)).score.running, false, 'a name and a lesson choice do not start it');
    await startTaskClock(page);
    assert.equal(await page.isVisible('#score-ready'), false, 'the READY line goes');
    const e1 = (await debug(page)).score.elapsed_s;
    await waitFor('the clock to run on 1 s with the stick at rest', async () => (await debug(page)).score.elapsed_s >= e1 + 1,
      { timeoutMs: 30000 });
    t.diagnostic('clock at 0 for 1.5 s of simulated time under the prompt and the help; running after the first key');
    await page.context().close();
  });

  test('practice without the clock: chosen on the offer card, no limit, marked practice', async () => {
    const page = await openTrainee();
    await waitFor('the lesson offer', () => page.isVisible('#lesson-practice'));
    await page.click('#lesson-practice');
    await waitFor('a practice attempt', async () => (await debug(page)).score?.practice === true, { timeoutMs: 5000 });
    const s = (await debug(page)).score;
    assert.equal(s.limit_s, 0, 'no time limit');
    assert.equal(s.running, false, 'practice waits for a control too');
    assert.match(await page.textContent('#score .score-title'), /^Practice: /);
    assert.match(await page.textContent('#score-ready'), /practice: no time limit/);
    assert.equal(await page.isVisible('#lesson-offer'), false);
    await startTaskClock(page);
    await page.screenshot({ path: path.join(ARTIFACTS, 'first-day-practice.png') });
    // R restarts the same kind of attempt
    await page.keyboard.press('KeyR');
    await page.keyboard.press('KeyR');
    await waitFor('a new practice attempt', async () => {
      const x = (await debug(page)).score;
      return x.practice === true && !x.running && x.elapsed_s === 0;
    }, { timeoutMs: 5000 });
    await page.context().close();
  });

  test('views framed for the work: Top shows bay, rack and truck beside the panels and zooms about the cursor; Window sees the grab; Total keeps the panels in Top; swing in (-180, 180]', async (t) => {
    const page = await openTrainee('?screenshots');
    await page.evaluate(() => localStorage.setItem('clamsim.lesson.v1', 'skipped'));
    await page.evaluate(() => document.getElementById('lesson-no')?.click());
    await page.getByRole('button', { name: 'Not now' }).click();   // the figures show the views, not the name card
    await waitFor('the name card gone', async () => !(await page.isVisible('#trainee-prompt')));
    const stage = await box(page, '#stage');
    const canvas = await box(page, '#view');
    const at = async (view, p) => {
      const q = await page.evaluate(([v, pt]) => window.clamsim.project(v, pt), [view, p]);
      return q && { ...q, x: q.x + canvas.left, y: q.y + canvas.top };
    };
    const covered = async (q) => {
      for (const sel of ['#score', '#lmi']) {
        const b = await box(page, sel);
        if (b && q.x >= b.left && q.x <= b.right && q.y >= b.top && q.y <= b.bottom) return sel;
      }
      return null;
    };
    const work = await page.evaluate(() => window.clamsim.workPoints());
    assert.ok(work.rack && work.truck, 'the dam scene has a rack and a truck');

    await showView(page, 'top');
    await page.screenshot({ path: path.join(FIGURES, 'top.png') });
    for (const name of ['rack', 'truck', 'crane']) {
      const p = work[name];
      const q = await at('top', p);
      assert.ok(inside({ left: q.x, right: q.x, top: q.y, bottom: q.y }, stage), `${name} at ${q.x},${q.y} off the stage`);
      assert.equal(await covered(q), null, `${name} under a panel in the Top view`);
    }
    const across = async () => {
      const [a, b] = [await at('top', work.rackEnds[0]), await at('top', work.rackEnds[1])];
      return Math.hypot(a.x - b.x, a.y - b.y);
    };
    const bayW = await across();
    assert.ok(bayW > 120, `the rack (the bay's width) is ${bayW.toFixed(0)} px across: framed for the work`);
    // zoom in with the wheel over the rack: the rack stays under the cursor
    const r0 = await at('top', work.rack);
    await page.mouse.move(r0.x, r0.y);
    for (let i = 0; i < 4; i++) {
      const w0 = await across();
      await page.mouse.wheel(0, -200);
      await waitFor(`wheel step ${i + 1} to zoom the Top view in (the bay ${w0.toFixed(0)} px across)`, async () => (await across()) > w0 + 1,
        { timeoutMs: 10000, everyMs: 50 });
    }
    await drawings(page);
    const r1 = await at('top', work.rack);
    const bayW1 = await across();
    assert.ok(bayW1 > bayW * 1.3, `zoomed in: ${bayW.toFixed(0)} -> ${bayW1.toFixed(0)} px`);
    assert.ok(Math.hypot(r1.x - r0.x, r1.y - r0.y) < 25, `the rack moved ${Math.hypot(r1.x - r0.x, r1.y - r0.y).toFixed(0)} px from the cursor`);
    assert.equal(await covered(r1), null, 'zooming does not take the rack under the score panel');
    t.diagnostic(`Top: bay ${bayW.toFixed(0)} px wide at the default zoom, ${bayW1.toFixed(0)} px after 4 wheel steps; rack moved ${Math.hypot(r1.x - r0.x, r1.y - r0.y).toFixed(1)} px`);

    await showView(page, 'window');
    await page.screenshot({ path: path.join(FIGURES, 'window.png') });
    const clam = await page.evaluate(() => window.clamsim.clamCenter());
    const c = await at('window', clam);
    assert.ok(c.inFront, 'the grab is in front of the Window camera');
    assert.ok(c.x > canvas.left + canvas.width * 0.15 && c.x < canvas.left + canvas.width * 0.85
      && c.y > canvas.top + canvas.height * 0.1 && c.y < canvas.top + canvas.height * 0.9, `the grab at ${c.x},${c.y}`);
    assert.ok(c.near >= 1, `the Window's near plane ${c.near} m: past the cab's pillars`);

    await showView(page, 'full');
    await page.screenshot({ path: path.join(FIGURES, 'full.png') });
    await showView(page, 'focus');
    await page.screenshot({ path: path.join(FIGURES, 'focus.png') });

    await showView(page, 'total');
    await page.screenshot({ path: path.join(FIGURES, 'total.png') });
    const q = (col, row) => ({ left: stage.left + (col * stage.width) / 2, right: stage.left + ((col + 1) * stage.width) / 2,
      top: stage.top + (row * stage.height) / 2, bottom: stage.top + ((row + 1) * stage.height) / 2 });
    const topQuad = q(1, 0);
    for (const sel of ['#score', '#lmi']) {
      const b = await box(page, sel);
      assert.ok(b && inside(b, topQuad), `${sel} ${JSON.stringify(b)} inside the Top quadrant ${JSON.stringify(topQuad)}`);
    }
    for (const sel of ['#warnings > *', '#lesson-offer', '#trainee-prompt']) {
      const b = await box(page, sel);
      if (b) assert.ok([q(0, 0), q(1, 0), q(0, 1), q(1, 1)].some((r) => inside(b, r)), `${sel} spans quadrants`);
    }
    const rackTotal = await at('top', work.rack);
    assert.equal(await covered(rackTotal), null, 'the rack clear of the panels in the Top quadrant');

    // swing right a little: the HUD reads a small negative angle, never 35x
    await showView(page, 'full');
    const swing = () => page.evaluate(() => window.clamsim.frame.values.swing_deg);
    const swing0 = await swing();
    const turned = (a) => Math.abs(((((a - swing0) % 360) + 540) % 360) - 180);   // degrees, either way, across 0/360
    // held until the server's swing has moved 2 degrees (the check below needs more than 0.5)
    await page.keyboard.down('ArrowRight');
    try {
      await waitFor('ArrowRight to swing the crane 2 degrees', async () => turned(await swing()) >= 2,
        { timeoutMs: 30000, everyMs: 20 });
    } finally {
      await page.keyboard.up('ArrowRight');
    }
    // let go: read once the swing has stopped (no change over 0.5 s of simulated time)
    await waitFor('the swing to stop after the key is let go', async () => {
      const [a, t0] = await page.evaluate(() => [window.clamsim.frame.values.swing_deg, window.clamsim.frame.t]);
      await waitFor('0.5 s of simulated time', async () => (await simTime(page)) >= t0 + 0.5, { timeoutMs: 20000, everyMs: 50 });
      return Math.abs((await swing()) - a) < 0.01;
    }, { timeoutMs: 60000 });
    // the HUD and the frame it shows, read together
    const [text, raw] = await page.evaluate(() => [document.getElementById('hud-swing').textContent.trim(), window.clamsim.frame.values.swing_deg]);
    const shown = Number(text);
    assert.ok(shown > -180 && shown <= 180, `swing shown ${text}`);
    const wrapped = ((((raw % 360) + 360) % 360) > 180 ? (((raw % 360) + 360) % 360) - 360 : ((raw % 360) + 360) % 360);
    assert.ok(Math.abs(shown - wrapped) < 0.3, `swing ${text} for the server's ${raw}`);
    assert.ok(Math.abs(shown) > 0.5, `the crane swung (${text})`);
    t.diagnostic(`swing: server ${raw.toFixed(2)} deg, shown ${text}`);
    await page.context().close();
  });

  test('instructor at 1366 px: the overview fits, Watch says who drives in the watcher\u2019s words, "The instructor" takes over', async (t) => {
    const trainee = await openTrainee();
    await trainee.evaluate(() => document.getElementById('lesson-no')?.click());
    await startTaskClock(trainee);
    const id = await trainee.evaluate(() => window.clamsim.session);
    const instructor = await newPage();
    await instructor.goto(`${server.url}login.html?next=/instructor.html`, { waitUntil: 'load', timeout: 20000 });
    await instructor.fill('#name', 'instructor');
    await instructor.fill('#password', PASSWORD);
    await instructor.click('#submit');
    await waitFor('the overview', async () => new URL(instructor.url()).pathname === '/instructor.html', { timeoutMs: 10000 });
    const row = `#live tr[data-key="${id}"]`;
    await waitFor('the trainee listed', () => instructor.isVisible(`${row} a.watch`), { timeoutMs: 10000 });
    await instructor.screenshot({ path: path.join(ARTIFACTS, 'first-day-overview.png') });
    const width = await instructor.evaluate(() => document.documentElement.clientWidth);
    const scrollW = await instructor.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scrollW <= width, `the page scrolls sideways: ${scrollW} > ${width}`);
    const table = await box(instructor, '#live');
    assert.ok(table.right <= width, `"Trainees now" ends at ${table.right}, the window at ${width}`);
    for (const sel of [`${row} a.watch`, `${row} button.ticket`]) {
      const b = await box(instructor, sel);
      if (sel.includes('ticket') && !b) continue;   // a server without tickets
      assert.ok(b && b.right <= width, `${sel} within the window: ${JSON.stringify(b)}`);
    }
    axeFound.push(...await axeAtSizes(instructor, 'overview'));

    const [watch] = await Promise.all([instructor.context().waitForEvent('page', { timeout: 10000 }), instructor.click(`${row} a.watch`)]);
    watch.on('pageerror', (e) => errors.push(`watch pageerror: ${e.message}`));
    await watch.setViewportSize({ width: 1366, height: 768 });
    await waitFor('the observer hello', () => watch.evaluate(() => window.clamsim?.observing !== null), { timeoutMs: 15000 });
    await waitFor('the desk', () => watch.isVisible('#desk'), { timeoutMs: 10000 });
    await waitFor('the watched trainee\u2019s frames on the watch tab', () => watch.evaluate(() => window.clamsim.frame !== null),
      { timeoutMs: 15000 });
    await waitFor('the desk\u2019s "Clear all"', () => watch.isVisible('#desk-fault-clear-all'), { timeoutMs: 10000 });
    await drawings(watch);
    await watch.screenshot({ path: path.join(ARTIFACTS, 'first-day-watch.png') });
    const last = await watch.textContent('#hud');
    assert.doesNotMatch(last, /You are driving/, 'the trainee\u2019s sentence is not the watcher\u2019s');
    const vw = await watch.evaluate(() => document.documentElement.clientWidth);
    const vh = await watch.evaluate(() => document.documentElement.clientHeight);
    const clear = await box(watch, '#desk-fault-clear-all');
    assert.ok(clear && inside(clear, { left: 0, top: 0, right: vw, bottom: vh }), `"Clear all" at ${JSON.stringify(clear)}`);
    // whole inside the desk's visible box (the desk scrolls; the button must not need it)
    const desk = await watch.evaluate(() => {
      const d = document.getElementById('desk');
      const r = d.getBoundingClientRect();
      return { left: r.left + d.clientLeft, top: r.top + d.clientTop, right: r.left + d.clientLeft + d.clientWidth, bottom: r.top + d.clientTop + d.clientHeight };
    });
    assert.ok(inside(clear, desk), `"Clear all" ${JSON.stringify(clear)} cut off by the desk ${JSON.stringify(desk)}`);
    const clearHit = await watch.evaluate(() => {
      const b = document.getElementById('desk-fault-clear-all').getBoundingClientRect();
      return document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2)?.id;
    });
    assert.equal(clearHit, 'desk-fault-clear-all', '"Clear all" is not under anything');
    axeFound.push(...await axeAtSizes(watch, 'watch tab'));
    // the default account takes the controls: the trainee reads a sentence, not "Instructor instructor"
    await watch.click('#desk-take');
    await waitFor('the trainee told who drives', () => trainee.evaluate(() => {
      const b = document.getElementById('control-banner');
      return !b.hidden && b.textContent;
    }), { timeoutMs: 10000 });
    const banner = await trainee.textContent('#control-banner');
    assert.equal(banner, 'The instructor is driving: your stick is ignored');
    await watch.click('#desk-release');
    t.diagnostic(`overview ${scrollW} px wide in ${width}; trainee told: ${banner}`);
    await trainee.context().close();
    await instructor.context().close();
  });
});

describe('a first day: the report card, the replay and a take-over', { skip: skip ?? false }, () => {
  let server, browser;
  const errors = [];
  const axeFound = [];
  const recordings = path.join(ARTIFACTS, 'recordings-first-day-short');
  const reports = path.join(ARTIFACTS, 'reports-first-day-short');
  const scenarios = path.join(ARTIFACTS, 'scenarios-first-day');
  const accounts = path.join(ARTIFACTS, 'state-first-day-short', 'accounts.json');

  before(async () => {
    writeShortTaskScenario(scenarios, 4);   // times out 6 s after the first control
    for (const d of [recordings, reports]) {
      rmSync(d, { recursive: true, force: true });
      mkdirSync(d, { recursive: true });
    }
    createAccount(accounts, 'instructor', PASSWORD);
    server = new ServerProcess({ httpPort: await freePort(), corbaPort: await freePort(), logName: 'server-first-day-short.log',
      extraArgs: ['--accounts', accounts, '--record', 'yes', '--record-dir', recordings, '--report-dir', reports,
        '--scenarios-dir', scenarios, '--world', 'short_task'] });
    process.once('exit', () => server.killNow());
    await server.start();
    browser = await launchBrowser();
  });

  after(async () => {
    // the practice page is still connected: a server stop reports its attempt "interrupted"
    await server?.stop('SIGINT');
    await browser?.close().catch(() => {});
    assert.deepEqual(errors, []);
    assert.deepEqual(axeFound, []);
    const written = readdirSync(reports).filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(path.join(reports, f), 'utf8')));
    const practice = written.filter((r) => r.practice === true);
    assert.equal(practice.length, 1, `one practice report among ${written.map((r) => `${r.outcome}/${r.practice}`)}`);
    assert.equal(practice[0].outcome, 'interrupted');
    assert.equal(practice[0].limit_s, null, 'no limit');
    assert.ok(practice[0].elapsed_s > 6, `past the timed limit: ${practice[0].elapsed_s}`);
    assert.ok(written.some((r) => r.practice === false && r.outcome === 'timed out'), 'the timed attempt is not practice');
  });

  test('a practice attempt runs past the limit and its report says practice', async (t) => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    await page.goto(server.url, { waitUntil: 'load', timeout: 20000 });
    await waitFor('frames', () => page.evaluate(() => (window.clamsim?.stats.frames ?? 0) > 5), { timeoutMs: 20000 });
    await page.evaluate(() => window.clamsim.restart(true));
    await waitFor('a practice attempt', async () => (await debug(page)).score?.practice === true, { timeoutMs: 5000 });
    await startTaskClock(page);
    // the timed attempt would end at 6 s
    await waitFor('7 s on the practice clock', async () => (await debug(page)).score.elapsed_s > 7, { timeoutMs: 20000 });
    const s = (await debug(page)).score;
    assert.equal(s.finished, false, 'practice does not time out');
    assert.equal(await page.isVisible('#report .report-card'), false);
    assert.match(await page.textContent('#score .legend-limit'), /limit —/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'first-day-practice-late.png') });
    t.diagnostic(`practice at ${s.elapsed_s.toFixed(1)} s, past the 6 s limit, still running`);
    // left open: the server's stop (after) reports this attempt, marked practice
  });

  test('the report card\u2019s buttons at 768 px; the replay banner beside the hit badge; a take-over asks no name and offers no lesson', async (t) => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, bypassCSP: true });
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    await page.goto(server.url, { waitUntil: 'load', timeout: 20000 });
    await waitFor('frames', () => page.evaluate(() => (window.clamsim?.stats.frames ?? 0) > 5), { timeoutMs: 20000 });
    // down onto the rack (hits) until the task times out
    await page.bringToFront();
    // held until the server counts a strike on the rack (a penalty: a tall mark on the replay's bar)
    for (const k of ['ArrowDown', 'KeyA', 'KeyD']) await page.keyboard.down(k);
    try {
      await waitFor('a strike on the rack (score.rack_gate_hits)', async () => (await debug(page)).score?.rack_gate_hits > 0,
        { timeoutMs: 30000, everyMs: 50 });
    } finally {
      for (const k of ['ArrowDown', 'KeyA', 'KeyD']) await page.keyboard.up(k);
    }
    await waitFor('the report', () => page.isVisible('#report .report-card'), { timeoutMs: 20000 });
    await page.screenshot({ path: path.join(FIGURES, 'report-card.png') });
    const vh = 768;
    const buttons = await page.evaluate(() => [...document.querySelectorAll('#report .report-actions button')]
      .map((e) => {
        const b = e.getBoundingClientRect();
        const hit = document.elementFromPoint(b.left + b.width / 2, Math.min(b.top + b.height / 2, innerHeight - 1));
        return { text: e.textContent, top: b.top, bottom: b.bottom, onTop: hit === e };
      }));
    assert.ok(buttons.length >= 3, `the report's buttons: ${JSON.stringify(buttons)}`);
    for (const b of buttons) assert.ok(b.bottom <= vh && b.top >= 0 && b.onTop, `"${b.text}" whole and clickable at 768 px: ${JSON.stringify(b)}`);
    axeFound.push(...await axeAtSizes(page, 'report card'));

    // the trainee's own replay, at a hit
    const [tab] = await Promise.all([context.waitForEvent('page', { timeout: 10000 }), page.click('#report-replay')]);
    tab.on('pageerror', (e) => errors.push(`replay pageerror: ${e.message}`));
    await tab.setViewportSize({ width: 1366, height: 768 });
    await waitFor('the replay ready', () => tab.evaluate(() => window.clamsim?.replay?.ready === true), { timeoutMs: 60000 });
    const hit = tab.locator('.replay-mark[data-tall="true"]').first();
    await hit.click();
    await waitFor('the hit badge', () => tab.isVisible('.warning[data-id="contact"]'), { timeoutMs: 10000 });
    const badge = await box(tab, '.warning[data-id="contact"]');
    const rb = await box(tab, '#replay-banner');
    await tab.screenshot({ path: path.join(FIGURES, 'replay-hit.png') });
    assert.ok(rb && badge && !overlap(badge, rb), `the replay banner ${JSON.stringify(rb)} over the badge ${JSON.stringify(badge)}`);
    axeFound.push(...await axeAtSizes(tab, 'replay'));

    // take over from here: the new live page asks no name and offers no lesson
    await tab.click('#replay-takeover');
    await waitFor('the take-over page', () => new URL(tab.url()).searchParams.get('takeover'), { timeoutMs: 15000 });
    await waitFor('live frames', () => tab.evaluate(() => window.clamsim.frame !== null && window.clamsim.replay === null), { timeoutMs: 20000 });
    // the hello (where a name prompt or a lesson offer would be shown) came before the frames
    await drawings(tab);
    await tab.screenshot({ path: path.join(ARTIFACTS, 'first-day-takeover.png') });
    assert.equal(await tab.isVisible('#trainee-prompt'), false, 'no "Who is training?" on a take-over');
    assert.equal(await tab.isVisible('#lesson-offer'), false, 'no lesson offered on a take-over');
    t.diagnostic(`report card, replay at a hit and take-over checked; recordings: ${readdirSync(recordings).length}`);
    await context.close();
  });
});
