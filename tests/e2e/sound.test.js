// The machine's sound (docs/web-client.md "Sound") against the real clamsim-server in Debian's
// Chromium: nothing plays before a gesture; after one, the engine band carries energy and
// rises when the trainee slews; muting silences it; the volume is remembered.
// Needs CLAMSIM_SERVER and Debian's Chromium; skips otherwise.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { skipReason, freePort, waitFor, ServerProcess, launchBrowser, ARTIFACTS } from './harness.js';

const skip = skipReason();
if (skip) {
  console.log(`e2e skipped: ${skip}`);
  test('sound', { skip }, () => {});
}

// the engine's firing frequency spans 37.5-105 Hz (web/js/sound-model.js ENGINE)
const ENGINE_BAND = [30, 120];
const settle = (ms) => new Promise((r) => setTimeout(r, ms));

describe('sound', { skip: skip ?? false }, () => {
  let server, browser, page;
  const errors = [];
  const engine = () => page.evaluate(([lo, hi]) => window.clamsim.sound.bandEnergy(lo, hi), ENGINE_BAND);

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    server = new ServerProcess({ httpPort: await freePort(), corbaPort: await freePort() });
    process.once('exit', () => server.killNow());
    await server.start();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 760 } });
    page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    await page.goto(server.url, { waitUntil: 'load', timeout: 20000 });
    await waitFor('the page to say "connected"', async () => (await page.textContent('#hud-connection')) === 'connected',
      { timeoutMs: 15000 });
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
  });

  test('silent before the first gesture, as autoplay rules require', async () => {
    assert.equal(await page.evaluate(() => window.clamsim.sound.started), false);
    assert.equal(await engine(), 0);
    assert.equal(await page.textContent('#sound-toggle'), '♪ On');
  });

  test('the engine sounds after a gesture and works harder while the crane slews', async () => {
    if (await page.isVisible('#trainee-cancel')) await page.click('#trainee-cancel');
    await page.mouse.click(640, 400);   // a gesture on the stage
    await waitFor('the sound started', () => page.evaluate(() => window.clamsim.sound.started), { timeoutMs: 5000 });
    await settle(1500);
    const idle = await engine();
    assert.ok(idle > 1e-7, `the idling engine is audible: ${idle}`);
    await page.keyboard.down('ArrowLeft');
    try {
      await waitFor('the crane slewing', () => page.evaluate(() => Math.abs(window.clamsim.frame.joint_velocity[0]) > 2),
        { timeoutMs: 10000 });
      await settle(1500);   // the engine spools up (0.35 s time constant)
      const working = await engine();
      console.log(`engine band ${ENGINE_BAND.join("-")} Hz, mean power: idle ${idle.toExponential(2)}, slewing ${working.toExponential(2)}`);
      assert.ok(working > 1.5 * idle, `the engine works harder under demand: ${idle} -> ${working}`);
      await page.screenshot({ path: path.join(ARTIFACTS, 'sound-controls.png'), clip: { x: 0, y: 0, width: 1280, height: 90 } });
    } finally {
      await page.keyboard.up('ArrowLeft');
    }
  });

  test('mute silences it; the setting is remembered', async () => {
    await page.click('#sound-toggle');
    assert.equal(await page.textContent('#sound-toggle'), '♪ Off');
    await settle(500);
    const muted = await engine();
    assert.ok(muted < 1e-10, `muted: ${muted}`);
    await page.reload({ waitUntil: 'load' });
    assert.equal(await page.textContent('#sound-toggle'), '♪ Off', 'still off after a reload');
    assert.deepEqual(await page.evaluate(() => window.clamsim.sound.settings), { volume: 0.6, muted: true });
    await page.click('#sound-toggle');
    assert.equal(await page.textContent('#sound-toggle'), '♪ On');
    assert.deepEqual(errors, []);
  });
});
