// A connection the server refuses is not a lost one: /?scenario=dam_intak (one letter off)
// against the real clamsim-server. The server logs the refusal in one line naming the bad
// name, its close reason lists the scenarios there are, and the page stops retrying, says
// it was refused and offers the scenarios as links; following one connects.
// Needs CLAMSIM_SERVER and Debian's Chromium; skips otherwise.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { skipReason, freePort, waitFor, sleep, ServerProcess, launchBrowser, ARTIFACTS } from './harness.js';

const skip = skipReason();
if (skip) {
  console.log(`e2e skipped: ${skip}`);
  test('a refused scenario', { skip }, () => {});
}

describe('a refused scenario', { skip: skip ?? false }, () => {
  let server, browser, page;
  const sockets = [];
  const errors = [];

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    server = new ServerProcess({ httpPort: await freePort(), corbaPort: await freePort(), logName: 'refusal-server.log' });
    process.once('exit', () => server.killNow());
    await server.start();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    page = await context.newPage();
    page.on('websocket', (ws) => sockets.push(ws.url()));
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
  });

  test('client-config lists the scenarios and models the server has', async () => {
    const config = await (await fetch(`${server.url}api/client-config`)).json();
    assert.ok(config.scenarios.includes('dam_intake'), JSON.stringify(config.scenarios));
    assert.ok(config.scenarios.includes('first_lesson'));
    assert.deepEqual(config.models, ['t250']);
  });

  test('an unknown scenario: logged, refused once, and the page offers the real ones', async () => {
    await page.goto(`${server.url}?scenario=dam_intak`, { waitUntil: 'load', timeout: 20000 });
    await waitFor('the refusal on the page', () => page.isVisible('#refusal'), { timeoutMs: 15000 });
    const text = await page.textContent('#refusal');
    assert.match(text, /Refused by the server: unknown scenario "dam_intak"\. Choose one of the scenarios below/);
    assert.equal(await page.textContent('#hud-connection'), 'refused by the server');
    assert.equal(await page.isVisible('#banner'), false, 'no "connection lost, reconnecting" banner');
    const links = await page.$$eval('#refusal a', (as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
    assert.ok(links.some(([name, href]) => name === 'dam_intake' && new URL(href).searchParams.get('scenario') === 'dam_intake'),
      JSON.stringify(links));
    assert.equal(links.length, (await (await fetch(`${server.url}api/client-config`)).json()).scenarios.length);
    await page.screenshot({ path: path.join(ARTIFACTS, 'refusal-unknown-scenario.png') });

    // the server said it once, in one line naming the name and the choices (the event log
    // writes its message as a quoted string: the name's quotes are escaped there)
    const logged = () => server.output.split('\n').filter((l) => /refused WebSocket: unknown scenario \\?"dam_intak\\?"/.test(l));
    await waitFor('the server to log the refusal', () => logged().length > 0, { timeoutMs: 5000 });
    assert.equal(logged().length, 1, logged().join('\n'));
    assert.match(logged()[0], /; the scenarios: dam_intake, demo, /);

    // no retry: the first attempt is the only one, however long the page is left (the old
    // page's backoff retried within 0.3 s, then 0.6 s, 1.2 s...)
    await sleep(2500);
    assert.equal(sockets.length, 1, sockets.join('\n'));
    assert.equal(logged().length, 1);
  });

  test('following a link connects with that scenario', async () => {
    await page.click('#refusal a:text-is("dam_intake")');
    await waitFor('the page to say "connected"', async () => (await page.textContent('#hud-connection')) === 'connected', { timeoutMs: 15000 });
    assert.equal(await page.evaluate(() => window.clamsim.scenario), 'dam_intake');
    assert.equal(await page.isVisible('#refusal'), false);
    assert.deepEqual(errors, []);
  });
});
