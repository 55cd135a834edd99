import { freePort, ServerProcess, launchBrowser, VIRTUAL_JOYSTICK, waitFor, sleep, ARTIFACTS } from './harness.js';
import path from 'node:path';
const server = new ServerProcess({ httpPort: await freePort(), corbaPort: await freePort(), logName: 'probe.log', extraArgs: (process.env.PROBE_ARGS ?? '').split(' ').filter(Boolean) });
await server.start();
const browser = await launchBrowser();
try {
  for (const [w, h] of [[1024, 600], [1366, 768], [1920, 1080]]) {
    const ctx = await browser.newContext({ viewport: { width: w, height: h } });
    await ctx.addInitScript(VIRTUAL_JOYSTICK);
    const page = await ctx.newPage();
    page.on('pageerror', (e) => console.log('pageerror', e.message));
    await page.goto(server.url + (process.argv[2] ?? ''));
    await waitFor('frames', () => page.evaluate(() => window.clamsim?.stats.frames > 20));
    await sleep(500);
    await page.screenshot({ path: path.join('/tmp/wtA', `probe-${w}x${h}.png`) });
    await page.evaluate(() => window.clamsim.setView('total'));
    await sleep(300);
    await page.screenshot({ path: path.join('/tmp/wtA', `probe-total-${w}x${h}.png`) });
    const boxes = await page.evaluate(() => Object.fromEntries(['hud', 'score', 'trainee-prompt', 'keys-hint', 'bar', 'stage'].map((id) => {
      const e = document.getElementById(id); const r = e.getBoundingClientRect();
      return [id, { x: r.x, y: r.y, w: r.width, h: r.height, sh: e.scrollHeight, ch: e.clientHeight }];
    })));
    console.log(w, h, JSON.stringify(boxes));
    await page.fill('#trainee-prompt input', 'Ada Lovelace-Smythe');
    await page.click('#trainee-prompt button[type=submit]');
    await sleep(500);
    await page.screenshot({ path: path.join('/tmp/wtA', `probe-named-${w}x${h}.png`) });
    console.log('after name', JSON.stringify(await page.evaluate(() => ['stage', 'keys-hint', 'bar'].map((id) => document.getElementById(id).getBoundingClientRect().toJSON()))));
    await ctx.close();
  }
} finally { await browser.close(); await server.stop(); }
