// The browser client against the real clamsim-server: page load, frames, a virtual
// joystick swinging the crane, the five views, recovery after a server restart.
// Needs CLAMSIM_SERVER (the lead sets it from CMake) and Debian's Chromium; skips otherwise.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  skipReason, freePort, waitFor, sleep, ServerProcess, launchBrowser, VIRTUAL_JOYSTICK,
  canvasSignature, thumbDifference, measureFps, ARTIFACTS,
} from './harness.js';

const skip = skipReason();
if (skip) {
  console.log(`e2e skipped: ${skip}`);
  test('browser client against clamsim-server', { skip }, () => {});
}

const VIEWS = ['full', 'top', 'window', 'focus', 'total'];
const hudNumber = async (page, id) => Number((await page.textContent(`#hud-${id}`)).replace(/[^0-9.+-]/g, ''));

describe('browser client against clamsim-server', { skip: skip ?? false }, () => {
  let server, browser, page;
  const consoleErrors = [];
  const expectedErrors = [];  // while the server is down on purpose
  let serverDown = false;

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    server = new ServerProcess({ httpPort: await freePort(), corbaPort: await freePort() });
    process.once('exit', () => server.killNow());
    await server.start();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 760 } });
    await context.addInitScript(VIRTUAL_JOYSTICK);
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() !== 'error') return;
      (serverDown ? expectedErrors : consoleErrors).push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
    page.on('requestfailed', (r) => {
      if (!serverDown) consoleErrors.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
    });
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
  });

  test('the page loads and connects without console errors', async () => {
    const resp = await page.goto(`${server.url}?screenshots=1`, { waitUntil: 'load', timeout: 20000 });
    assert.equal(resp.status(), 200);
    await waitFor('the page to say "connected"', async () => (await page.textContent('#hud-connection')) === 'connected', { timeoutMs: 15000 });
    await waitFor('the scene (hello) to be built', () => page.evaluate(() => window.clamsim.frame !== null), { timeoutMs: 10000 });
    await sleep(500);
    assert.deepEqual(consoleErrors, []);
  });

  test('frames arrive: the HUD frame counter grows', async (t) => {
    const a = await hudNumber(page, 'frames');
    await sleep(1200);
    const b = await hudNumber(page, 'frames');
    assert.ok(b > a + 10, `frames ${a} -> ${b} in 1.2 s`);
    const rtts = [];
    for (let i = 0; i < 3; i++) {
      rtts.push(await waitFor('a ping round trip', () => page.evaluate(() => {
        const ms = window.clamsim.stats.latencyMs;
        return Number.isFinite(ms) ? ms : false;
      }), { timeoutMs: 3000 }));
      await sleep(1000);  // one ping a second
    }
    t.diagnostic(`round trips ${rtts.map((x) => x.toFixed(1)).join(', ')} ms; ${await page.textContent('#hud-rate')} frames/s from the server; ${await page.textContent('#hud-fps')} renders/s (only when something changed)`);
    const swing = await page.textContent('#hud-swing');
    assert.match(swing, /^-?\d+\.\d$/);
  });

  test('a virtual joystick swings the crane', async () => {
    await waitFor('the joystick to be seen', async () => /Virtual 3-axis stick/.test(await page.textContent('#hud-source')), { timeoutMs: 5000 });
    const before = await page.evaluate(() => window.clamsim.frame.display[0]);
    // stick left: +5 V on the swing motor (counter-clockwise)
    await page.evaluate(() => { window.__e2ePad.axes[0] = -1; });
    await waitFor('the swing volts to read +5', async () => (await page.textContent('#hud-volts-swing')) === '5.0', { timeoutMs: 3000 });
    const moved = await waitFor('the reported swing angle to change by 1 deg', async () => {
      const now = await page.evaluate(() => window.clamsim.frame.display[0]);
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

  test('the mapping screen lists the joystick, learns an axis and saves it per device', async () => {
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
    const sigs = {};
    const fps = {};
    for (const [i, view] of VIEWS.entries()) {
      await page.click(`button[data-view="${view}"]`);
      assert.equal(await page.evaluate(() => window.clamsim.view), view);
      await sleep(600);  // a few frames in this view
      sigs[view] = await canvasSignature(page);
      await page.screenshot({ path: path.join(ARTIFACTS, `view-${i + 1}-${view}.png`) });
      fps[view] = await measureFps(page, 2000);
      t.diagnostic(`${view}: ${fps[view].fps.toFixed(1)} frames/s redrawing every frame (requestAnimationFrame over 2 s)`);
    }
    writeFileSync(path.join(ARTIFACTS, 'fps.json'), `${JSON.stringify(fps, null, 2)}\n`);
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
    await sleep(200);
    assert.equal(await page.evaluate(() => window.clamsim.view), 'top');  // once per press
    await page.keyboard.press('Digit1');
    assert.deepEqual(consoleErrors, []);
  });

  test('recovers after a server restart', async () => {
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
    }, { timeoutMs: 5000 });
    await sleep(1000);
    const b = await hudNumber(page, 'frames');
    assert.ok(b > a + 5, `frames ${a} -> ${b} after the restart`);
    assert.equal(await page.isVisible('#banner'), false);
    await page.screenshot({ path: path.join(ARTIFACTS, 'reconnected.png') });
    const unexpected = expectedErrors.filter((e) => !/WebSocket|ERR_CONNECTION_REFUSED|Failed to load resource/.test(e));
    assert.deepEqual([...consoleErrors, ...unexpected], []);
  });
});
