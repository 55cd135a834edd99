// The browser during a server's drain (docs/deploy.md): SIGTERM, and the page tells the
// trainee, in the server's own words, how long the session has left; the session goes on;
// the server exits once the page is closed. The empty world (--world none) on the way.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  skipReason, freePort, waitFor, ServerProcess, launchBrowser, VIRTUAL_JOYSTICK, ARTIFACTS,
} from './harness.js';

const skip = skipReason();

describe('the page during a drain', { skip: skip ?? false }, () => {
  let server, browser;

  before(async () => {
    server = new ServerProcess({ httpPort: await freePort(), corbaPort: await freePort(),
      logName: 'server-drain.log', extraArgs: ['--drain-seconds', '60', '--world', 'none'] });
    process.once('exit', () => server.killNow());
    await server.start();
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
  });

  test('SIGTERM: the banner counts down, frames go on, the server leaves with the page', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 760 } });
    await context.addInitScript(VIRTUAL_JOYSTICK);
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url, { waitUntil: 'load', timeout: 20000 });
    await waitFor('connected', async () => (await page.textContent('#hud-connection')) === 'connected',
      { timeoutMs: 15000 });
    await waitFor('frames', () => page.evaluate(() => window.clamsim.frame !== null), { timeoutMs: 10000 });

    const exited = new Promise((resolve) => server.child.once('exit', (code) => resolve(code)));
    server.child.kill('SIGTERM');
    await waitFor('the drain banner', async () => /ends in \d+ s/.test(await page.textContent('#banner') ?? ''),
      { timeoutMs: 5000 });
    assert.equal(await page.isVisible('#banner'), true);
    assert.match(await page.textContent('#hud-connection'), /server stopping in \d+ s/);
    const first = Number((await page.textContent('#banner')).match(/ends in (\d+) s/)[1]);
    assert.ok(first > 50 && first <= 60, `${first} s left of a 60 s drain`);
    const seq = await page.evaluate(() => window.clamsim.frame.seq);
    await waitFor('the countdown to move', async () => {
      const now = Number((await page.textContent('#banner')).match(/ends in (\d+) s/)?.[1]);
      return now < first;
    }, { timeoutMs: 4000 });
    assert.ok(await page.evaluate(() => window.clamsim.frame.seq) > seq, 'frames go on while draining');
    await page.screenshot({ path: path.join(ARTIFACTS, 'drain-banner.png') });

    await context.close();
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running'), 10000))]);
    assert.equal(code, 0, 'the server exits as soon as its last session ends');
    server.child = null;
    assert.deepEqual(errors, []);
  });
});
