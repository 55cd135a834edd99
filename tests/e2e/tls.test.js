// The browser client over HTTPS/WSS (docs/security.md, "TLS on the web port"): the real
// clamsim-server with a certificate from the test PKI (tests/tls/make-test-pki.sh), and
// Chromium trusting exactly that certificate's key (--ignore-certificate-errors-spki-list),
// nothing wider. The page loads without console errors - no CSP violation either - frames
// flow over wss://, and the virtual joystick swings the crane.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  skipReason, freePort, waitFor, ServerProcess, launchBrowser, VIRTUAL_JOYSTICK, drawings,
  ARTIFACTS, REPO,
} from './harness.js';

const skip = skipReason();
if (skip) test('browser client over https', { skip }, () => {});

// base64(sha256(SubjectPublicKeyInfo)) of the first certificate in a PEM file
function spkiHash(pemFile) {
  const cert = new X509Certificate(readFileSync(pemFile));
  return createHash('sha256').update(cert.publicKey.export({ type: 'spki', format: 'der' })).digest('base64');
}

describe('browser client over https', { skip: skip ?? false }, () => {
  let server, browser, page, pki;
  const consoleErrors = [];

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    pki = mkdtempSync(path.join(os.tmpdir(), 'clamsim-e2e-pki-'));
    execFileSync('bash', [path.join(REPO, 'tests/tls/make-test-pki.sh'), pki], { timeout: 30000 });
    server = new ServerProcess({
      httpPort: await freePort(), corbaPort: await freePort(), logName: 'server-tls.log', tls: true,
      extraArgs: ['--tls-cert', path.join(pki, 'server.pem'), '--tls-key', path.join(pki, 'server.key'),
        '--report-dir', path.join(ARTIFACTS, 'reports')],
    });
    process.once('exit', () => server.killNow());
    await server.start();
    browser = await launchBrowser([`--ignore-certificate-errors-spki-list=${spkiHash(path.join(pki, 'server.pem'))}`]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 760 } });
    await context.addInitScript(VIRTUAL_JOYSTICK);
    page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
    page.on('requestfailed', (r) => consoleErrors.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
    if (pki) rmSync(pki, { recursive: true, force: true });
  });

  test('the page loads over https with its security headers and no console errors', async () => {
    assert.match(server.url, /^https:/);
    const resp = await page.goto(`${server.url}?screenshots=1`, { waitUntil: 'load', timeout: 20000 });
    assert.equal(resp.status(), 200);
    const headers = resp.headers();
    assert.match(headers['content-security-policy'], /script-src 'self' 'sha256-/);
    assert.match(headers['content-security-policy'], /frame-ancestors 'none'/);
    assert.equal(headers['strict-transport-security'], 'max-age=31536000');
    assert.equal(headers['x-content-type-options'], 'nosniff');
    assert.equal(headers['referrer-policy'], 'no-referrer');
    await waitFor('the page to say "connected"', async () => (await page.textContent('#hud-connection')) === 'connected', { timeoutMs: 15000 });
    await waitFor('the scene (hello) to be built', () => page.evaluate(() => window.clamsim.frame !== null), { timeoutMs: 10000 });
    assert.equal(await page.evaluate(() => window.isSecureContext), true);
    await page.click('#trainee-cancel').catch(() => {});
    // what the click set going has run: the page has drawn frames since
    await drawings(page);
    assert.deepEqual(consoleErrors, []);
  });

  test('frames flow over wss://', async () => {
    const count = () => page.evaluate(() => Number(document.querySelector('#hud-frames').textContent.replace(/[^0-9]/g, '')));
    const a = await count();
    // counted, not timed: the bound only ends a wait for frames that stopped
    await waitFor('the HUD to count 10 more frames', async () => (await count()) > a + 10, { timeoutMs: 30000 });
  });

  test('the virtual joystick swings the crane', async () => {
    await waitFor('the joystick to be seen', async () => /Virtual 3-axis stick/.test(await page.textContent('#hud-source')), { timeoutMs: 5000 });
    const before = await page.evaluate(() => window.clamsim.frame.values.swing_deg);
    await page.evaluate(() => { window.__e2ePad.axes[0] = -1; });
    const moved = await waitFor('the reported swing angle to change by 1 deg', async () => {
      const now = await page.evaluate(() => window.clamsim.frame.values.swing_deg);
      let d = now - before;
      if (d > 180) d -= 360;
      if (d < -180) d += 360;
      return Math.abs(d) > 1 ? d : false;
    }, { timeoutMs: 20000, everyMs: 200 });
    await page.evaluate(() => { window.__e2ePad.axes[0] = 0; });
    assert.ok(moved > 0, `positive volts swing counter-clockwise (got ${moved.toFixed(2)} deg)`);
    await page.screenshot({ path: path.join(ARTIFACTS, 'tls-after-swing.png') });
    assert.deepEqual(consoleErrors, []);
  });
});
