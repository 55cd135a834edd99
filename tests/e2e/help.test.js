// The keys and the help overlay against the real clamsim-server: the page drives with the
// layout the server read from config/keyboard.json, says it in the header's hint, and the
// help overlay (? key or button) lists those keys and the connected joystick's mapping,
// and axe-core finds nothing serious in it (colour contrast of every key cap included).
// Needs CLAMSIM_SERVER and Debian's Chromium; skips otherwise.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { skipReason, freePort, waitFor, ServerProcess, launchBrowser, VIRTUAL_JOYSTICK, ARTIFACTS, REPO, axeSerious } from './harness.js';
import { parseKeyboardLayout, keyHint } from '../../web/js/keyboard.js';

const skip = skipReason();
if (skip) {
  console.log(`e2e skipped: ${skip}`);
  test('keys and help overlay', { skip }, () => {});
}

const layout = parseKeyboardLayout(JSON.parse(readFileSync(path.join(REPO, 'config/keyboard.json'), 'utf8')));

describe('keys and help overlay', { skip: skip ?? false }, () => {
  let server, browser, page;
  const errors = [];

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    server = new ServerProcess({ httpPort: await freePort(), corbaPort: await freePort() });
    process.once('exit', () => server.killNow());
    await server.start();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 760 } });
    await context.addInitScript(VIRTUAL_JOYSTICK);
    page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    await page.goto(`${server.url}?screenshots=1`, { waitUntil: 'load', timeout: 20000 });
    await waitFor('the page to say "connected"', async () => (await page.textContent('#hud-connection')) === 'connected', { timeoutMs: 15000 });
    if (await page.isVisible('#trainee-cancel')) await page.click('#trainee-cancel');
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
  });

  test('the server serves config/keyboard.json and the hint line is made from it', async () => {
    const config = await (await fetch(`${server.url}api/client-config`)).json();
    const file = JSON.parse(readFileSync(path.join(REPO, 'config/keyboard.json'), 'utf8'));
    delete file.description;
    assert.deepEqual(config.keyboard, file);
    assert.equal(await page.textContent('#keys-hint'), keyHint(layout));
  });

  test('a key of the layout drives its signal while held', async () => {
    const telescope = layout.signals.findIndex((s) => s.name === 'telescope');
    await page.keyboard.down(layout.signals[telescope].plus.key);
    await waitFor('the telescope volts to read +5', async () => (await page.textContent('#hud-volts-telescope')) === '5.0', { timeoutMs: 3000 });
    await page.keyboard.up(layout.signals[telescope].plus.key);
    await waitFor('the telescope volts back at 0', async () => (await page.textContent('#hud-volts-telescope')) === '0.0', { timeoutMs: 3000 });
  });

  test('? opens the controls: every key of the file and the joystick mapping; Esc closes', async () => {
    assert.equal(await page.isVisible('dialog#help'), false);
    await page.keyboard.press('Shift+Slash');
    await waitFor('the help overlay', () => page.isVisible('dialog#help'), { timeoutMs: 3000 });
    const text = await page.textContent('dialog#help');
    for (const s of layout.signals) {
      for (const b of [s.plus, s.minus]) assert.ok(text.includes(`${b.label}${s.label} ${b.does}`), `lists ${b.label}: ${s.label} ${b.does}`);
    }
    for (const name of ['restart', 'half_speed', 'help']) assert.ok(text.includes(`${layout.actions[name].label}${layout.actions[name].does}`), name);
    assert.match(text, /Joystick: Virtual 3-axis stick/);
    assert.ok(text.includes('axis 0 invertedswing'), 'the default mapping: axis 0 inverted drives the swing');
    assert.ok(text.includes('button 9Restart task'));
    assert.ok(text.includes('1Full view'), 'the page shortcuts from its buttons');
    assert.equal(await page.getAttribute('#open-help', 'aria-expanded'), 'true');
    await page.screenshot({ path: path.join(ARTIFACTS, 'help-overlay.png') });
    await page.keyboard.press('Escape');
    await waitFor('the overlay to close on Esc', async () => !(await page.isVisible('dialog#help')), { timeoutMs: 3000 });
  });

  // axe-core's own rules, run in the page with the help open, at a laptop's and a desktop's
  // screen: no serious or critical violation, and the key caps of the table pass its colour
  // contrast check (so the check really looked at them, not only at the rest of the page).
  for (const [width, height] of [[1366, 768], [1920, 1080]]) {
    test(`axe-core finds no serious violation with the help open at ${width}x${height}`, async () => {
      await page.setViewportSize({ width, height });
      if (!(await page.isVisible('dialog#help'))) await page.keyboard.press('Shift+Slash');
      await waitFor('the help overlay', () => page.isVisible('dialog#help'), { timeoutMs: 3000 });
      assert.deepEqual(await axeSerious(page), [], 'serious or critical axe-core violations');
      const keysShown = await page.locator('dialog#help kbd').count();
      assert.ok(keysShown > 10, `the help shows its keys (${keysShown})`);
      // axe checks the letters' caps and leaves the arrows' (no text characters to it) as
      // "incomplete"; the caps' own colours are then measured here, every one of them
      const keys = await page.evaluate(() => window.axe.run({ include: [['dialog#help']] }, { runOnly: ['color-contrast'] }));
      const onKeys = (list) => (list[0]?.nodes ?? []).filter((n) => /kbd$/.test(n.target.at(-1)));
      assert.deepEqual(onKeys(keys.violations).map((n) => n.target.at(-1)), []);
      const unchecked = onKeys(keys.incomplete).filter((n) => !n.any.every((a) => /non-text characters/.test(a.message)));
      assert.deepEqual(unchecked.map((n) => n.target.at(-1)), [], 'axe could not tell the contrast of these keys');
      assert.ok(onKeys(keys.passes).length >= keysShown / 2, `axe passed ${onKeys(keys.passes).length} of ${keysShown} key caps`);
      const ratios = await page.$$eval('dialog#help kbd', (all) => all.map((k) => {
        const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
        const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
          .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
        const style = getComputedStyle(k);
        const [a, b] = [lum(rgb(style.color)), lum(rgb(style.backgroundColor))].sort((x, y) => y - x);
        return { key: k.textContent, ratio: (a + 0.05) / (b + 0.05), opaque: !/rgba\(.*, 0\)/.test(style.backgroundColor) };
      }));
      for (const r of ratios) assert.ok(r.opaque && r.ratio >= 4.5, `key ${r.key}: contrast ${r.ratio.toFixed(2)}:1, WCAG AA needs 4.5:1`);
      await page.screenshot({ path: path.join(ARTIFACTS, `help-overlay-${width}x${height}.png`) });
      await page.keyboard.press('Escape');
      await waitFor('the overlay to close on Esc', async () => !(await page.isVisible('dialog#help')), { timeoutMs: 3000 });
    });
  }

  test('the ? button opens it and the ? key closes it', async () => {
    await page.click('#open-help');
    await waitFor('the help overlay', () => page.isVisible('dialog#help'), { timeoutMs: 3000 });
    await page.keyboard.press('Shift+Slash');
    await waitFor('the overlay to close on ?', async () => !(await page.isVisible('dialog#help')), { timeoutMs: 3000 });
    assert.equal(await page.getAttribute('#open-help', 'aria-expanded'), 'false');
    assert.deepEqual(errors, []);
  });
});
