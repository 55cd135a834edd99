// Screenshots of every view (web/js/views.js) at rest and with the clam lowered under the
// water, saved to tests/e2e/artifacts/views-*.png, with the frames per second each view draws
// at 1280 x 800. Asserts only that the canvas is not blank and that the views differ.
// CLAMSIM_VIEWS_COMPARE=1 also opens a page with the earlier flat boxes (?models=0) and
// measures both view by view, then CLAMSIM_VIEWS_ROUNDS (3) more times each, alternating.
// Needs CLAMSIM_SERVER and Debian's Chromium; skips otherwise.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  skipReason, freePort, waitFor, sleep, ServerProcess, launchBrowser, canvasSignature, thumbDifference,
  measureFps, ARTIFACTS,
} from './harness.js';

const skip = skipReason();
if (skip) {
  console.log(`e2e skipped: ${skip}`);
  test('views against clamsim-server', { skip }, () => {});
}

const VIEWS = ['full', 'top', 'window', 'focus', 'total'];
const COMPARE = process.env.CLAMSIM_VIEWS_COMPARE === '1';
const FPS_MS = 3000;

describe('views against clamsim-server', { skip: skip ?? false }, () => {
  let server, browser;
  const pages = {};
  const errors = [];

  async function open(query) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(`${server.url}?screenshots=1${query}`, { waitUntil: 'load', timeout: 20000 });
    await waitFor('a frame', () => page.evaluate(() => window.clamsim.frame !== null), { timeoutMs: 15000 });
    return page;
  }

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    server = new ServerProcess({ httpPort: await freePort(), corbaPort: await freePort() });
    process.once('exit', () => server.killNow());
    await server.start();
    browser = await launchBrowser();
    pages.new = await open('');
    if (COMPARE) pages.old = await open('&models=0');
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
  });

  // every view of each page: a screenshot of the new one, its signature, fps of each page
  async function allViews(t, stage) {
    const sigs = {}, fps = {};
    for (const view of VIEWS) {
      fps[view] = {};
      for (const [which, page] of Object.entries(pages)) {
        await page.bringToFront();
        await page.click(`button[data-view="${view}"]`);
        assert.equal(await page.evaluate(() => window.clamsim.view), view);
        await sleep(600);
        if (which === 'new') {
          sigs[view] = await canvasSignature(page);
          await page.screenshot({ path: path.join(ARTIFACTS, `views-${stage}-${view}.png`) });
        }
        fps[view][which] = Number((await measureFps(page, FPS_MS)).fps.toFixed(1));
      }
      t.diagnostic(`${stage} ${view}: ${Object.entries(fps[view]).map(([k, v]) => `${k} ${v}`).join(', ')} frames/s (1280x800, ${FPS_MS / 1000} s)`);
    }
    for (const view of VIEWS) {
      const s = sigs[view];
      assert.ok(s.sd > 8 && s.colours >= 6, `${stage} ${view} looks blank (sd ${s.sd.toFixed(1)}, ${s.colours} colours)`);
    }
    for (let i = 0; i < VIEWS.length; i++) {
      for (let j = i + 1; j < VIEWS.length; j++) {
        const d = thumbDifference(sigs[VIEWS[i]].thumb, sigs[VIEWS[j]].thumb);
        assert.ok(d > 4, `${stage}: ${VIEWS[i]} and ${VIEWS[j]} look the same (mean difference ${d.toFixed(1)})`);
      }
    }
    return fps;
  }

  const results = {};

  test('every view at rest', async (t) => {
    results.rest = await allViews(t, 'rest');
  });

  test('every view with the clam under the water', async (t) => {
    // by the server's own keys: telescope out 3 m paying out both hoists (else the
    // anti-two-block switch stops the telescope), so the open clam hangs upstream of the
    // rack, whose top is above the water; then pay out until the clam is under
    const keys = await pages.new.evaluate(async () => {
      const cfg = await (await fetch('/api/client-config')).json();
      const s = cfg.keyboard.signals;
      return { out: s.telescope.plus.key, down: [s.cable1.minus.key, s.cable2.minus.key] };
    });
    const hold = async (page, held, what, done) => {
      for (const k of held) await page.keyboard.down(k);
      try {
        await waitFor(what, () => page.evaluate(done), { timeoutMs: 90000, everyMs: 200 });
      } finally {
        for (const k of held) await page.keyboard.up(k);
      }
    };
    for (const page of Object.values(pages)) {
      await page.bringToFront();
      const length = await page.evaluate(() => window.clamsim.frame.display[2]);
      await hold(page, [keys.out, ...keys.down], 'the telescope 3 m out', `window.clamsim.frame.display[2] >= ${length + 3}`);
      await hold(page, keys.down, 'the clam under the water', '(window.clamsim.frame?.clam_submerged ?? 0) > 0.5');
    }
    results.lowered = await allViews(t, 'lowered');
    writeFileSync(path.join(ARTIFACTS, 'views-fps.json'), `${JSON.stringify(results, null, 2)}\n`);
    assert.deepEqual(errors, []);
  });

  // the same views again, new and old alternating ROUNDS times each: the median of each
  test('frames per second, the models against the boxes (?models=0), interleaved', { skip: !COMPARE }, async (t) => {
    const rounds = Number(process.env.CLAMSIM_VIEWS_ROUNDS ?? 3);
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    results.interleaved = {};
    for (const view of VIEWS) {
      const runs = { new: [], old: [] };
      for (const page of Object.values(pages)) await page.click(`button[data-view="${view}"]`);
      for (let r = 0; r < rounds; r++) {
        for (const which of r % 2 ? ['old', 'new'] : ['new', 'old']) {
          await pages[which].bringToFront();
          await sleep(300);
          runs[which].push(Number((await measureFps(pages[which], FPS_MS)).fps.toFixed(1)));
        }
      }
      results.interleaved[view] = { new: median(runs.new), old: median(runs.old), runs };
      t.diagnostic(`interleaved ${view}: new ${runs.new.join(' ')} (median ${median(runs.new)}), old ${runs.old.join(' ')} (median ${median(runs.old)}) frames/s`);
    }
    writeFileSync(path.join(ARTIFACTS, 'views-fps.json'), `${JSON.stringify(results, null, 2)}\n`);
  });
});
