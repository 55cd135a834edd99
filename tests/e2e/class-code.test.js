// The class code in the trainee's page against the real clamsim-server (--class-code): the
// page learns from /api/client-config that a code is needed and asks for it, a wrong code
// is refused with the server's reason and asked again, the right one starts the session.
// Needs CLAMSIM_SERVER and Debian's Chromium, like client.test.js; skips otherwise.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  skipReason, freePort, waitFor, ServerProcess, launchBrowser, VIRTUAL_JOYSTICK, ARTIFACTS,
} from './harness.js';

const skip = skipReason();
if (skip) {
  console.log(`e2e skipped: ${skip}`);
  test('class code against clamsim-server', { skip }, () => {});
}

describe('class code', { skip: skip ?? false }, () => {
  let server, browser, page;
  const consoleErrors = [];

  before(async () => {
    server = new ServerProcess({ httpPort: await freePort(), corbaPort: await freePort(),
      logName: 'server-class-code.log', extraArgs: ['--class-code', 'crane-42'] });
    process.once('exit', () => server.killNow());
    await server.start();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 760 } });
    await context.addInitScript(VIRTUAL_JOYSTICK);
    page = await context.newPage();
    page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
  });

  test('asks for the code, refuses a wrong one, starts with the right one', async () => {
    await page.goto(server.url, { waitUntil: 'load', timeout: 20000 });
    await waitFor('the class code form', async () => page.isVisible('#class-code'), { timeoutMs: 10000 });
    assert.equal(await page.evaluate(() => window.clamsim.session), null, 'no session before the code');

    await page.fill('#class-code input', 'crane-41');
    await page.click('#class-code button');
    await waitFor('the refusal', async () => page.isVisible('#class-code .class-code-message'),
      { timeoutMs: 10000 });
    assert.equal(await page.textContent('#class-code .class-code-message'),
      'Refused by the server: class code: wrong code');
    await page.screenshot({ path: path.join(ARTIFACTS, 'class-code-refused.png') });

    await page.fill('#class-code input', 'crane-42');
    await page.click('#class-code button');
    await waitFor('a session', async () => (await page.evaluate(() => window.clamsim.session)) !== null,
      { timeoutMs: 15000 });
    assert.ok(await page.isHidden('#class-code'));
    assert.deepEqual(consoleErrors, []);
  });
});
