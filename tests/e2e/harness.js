// Shared pieces of the end-to-end tests: the real clamsim-server as a child process, a
// headless Chromium, free ports, bounded waits. Not a test file itself (node --test only
// runs *.test.js here).

import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, createWriteStream, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GHOST } from '../../web/js/occlusion.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ARTIFACTS = path.join(REPO, 'tests/e2e/artifacts');

let serverHelp = '';

// Why the suite cannot run here, or null when it can.
export function skipReason() {
  const bin = process.env.CLAMSIM_SERVER;
  if (!bin) return 'CLAMSIM_SERVER is not set (path of build/<preset>/server/app/clamsim-server)';
  if (!existsSync(bin)) return `CLAMSIM_SERVER=${bin} does not exist (build the server first)`;
  let help = '';
  try {
    help = execFileSync(bin, ['--help'], { encoding: 'utf8', timeout: 10000, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    help = `${e.stdout ?? ''}${e.stderr ?? ''}`;
  }
  if (!help.includes('--http-port')) return `${bin} has no --http-port yet (the WebSocket front end is not wired in)`;
  serverHelp = help;
  const browser = chromiumPath();
  if (!existsSync(browser)) return `no Chromium at ${browser} (apt-get install chromium, or set CHROMIUM)`;
  return null;
}

export function chromiumPath() {
  return process.env.CHROMIUM ?? '/usr/bin/chromium';
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Polls fn until it returns a truthy value; throws with `what` after timeoutMs.
export async function waitFor(what, fn, { timeoutMs = 10000, everyMs = 100 } = {}) {
  const end = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    await sleep(everyMs);
  }
}

async function httpOk(url) {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(1000) });
    return r.ok;
  } catch {
    return false;
  }
}

// The real server on 127.0.0.1: start(), stop(), same ports across restarts.
export class ServerProcess {
  // extraArgs: more flags for this server (e.g. another --world), after CLAMSIM_SERVER_ARGS
  // tls: the port speaks HTTPS (extraArgs carry --tls-cert/--tls-key); readiness is then
  // the "ready https://" line, since node's fetch does not trust the test CA
  constructor({ httpPort, corbaPort, logName = 'server.log', extraArgs = [], tls = false }) {
    Object.assign(this, { httpPort, corbaPort, extraArgs, logName, tls });
    this.child = null;
    mkdirSync(ARTIFACTS, { recursive: true });
    this.log = createWriteStream(path.join(ARTIFACTS, logName), { flags: 'a' });
  }

  get url() { return `${this.tls ? 'https' : 'http'}://127.0.0.1:${this.httpPort}/`; }

  async start() {
    const args = ['--host', '127.0.0.1', '--http-port', String(this.httpPort), '--corba-port', String(this.corbaPort),
      ...(serverHelp.includes('--http-host') ? ['--http-host', '127.0.0.1'] : []),
      // a test run that dies (killed, crashed) takes its server with it
      '--exit-with-parent', 'yes',
      ...(process.env.CLAMSIM_SERVER_ARGS ?? '').split(' ').filter(Boolean), ...this.extraArgs];
    this.log.write(`\n--- ${new Date().toISOString()} ${process.env.CLAMSIM_SERVER} ${args.join(' ')}\n`);
    const child = spawn(process.env.CLAMSIM_SERVER, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    // what the server said on either stream, for tests of its log lines
    this.output = '';
    child.stdout.on('data', (d) => { this.output += d; });
    child.stderr.on('data', (d) => { this.output += d; });
    child.stdout.pipe(this.log, { end: false });
    child.stderr.pipe(this.log, { end: false });
    let exited = null;
    child.once('exit', (code, signal) => { exited = { code, signal }; });
    await waitFor(`the server to answer on ${this.url}`, async () => {
      if (exited) throw new Error(`server exited early (${JSON.stringify(exited)}); see ${path.join(ARTIFACTS, this.logName)}`);
      if (this.tls) return out.includes(`ready ${this.url}`);
      return (await httpOk(`${this.url}healthz`)) || (await httpOk(this.url));
    }, { timeoutMs: 20000, everyMs: 150 });
  }

  // SIGKILL by default: the page must cope with a server that vanishes without a goodbye.
  async stop(signal = 'SIGKILL') {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const done = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await Promise.race([done, sleep(5000)]);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await Promise.race([done, sleep(2000)]);
    }
    this.child = null;
  }

  killNow() {
    try { this.child?.kill('SIGKILL'); } catch { /* gone */ }
  }
}

// A copy of the shipped dam scenario whose task's optimum is cut to optimumS (so it times
// out at 1.5 x that), written as <dir>/short_task.json: a task that ends within seconds.
// A real clamsim-server on free loopback ports (killed if the test process dies) and a
// headless Chromium: what most browser tests start in their `before`. Options as
// ServerProcess's, without the ports.
export async function startServerAndBrowser({ logName, extraArgs = [] } = {}) {
  const server = new ServerProcess({ httpPort: await freePort(), corbaPort: await freePort(), logName, extraArgs });
  process.once('exit', () => server.killNow());
  await server.start();
  return { server, browser: await launchBrowser() };
}

export function writeShortTaskScenario(dir, optimumS = 4) {
  const src = JSON.parse(readFileSync(path.join(REPO, 'config/scenarios/dam_intake.json'), 'utf8'));
  src.task.optimum_s = optimumS;
  delete src.task.lesson;  // its lesson's scenario is not in this folder
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'short_task.json'), `${JSON.stringify(src, null, 1)}\n`);
}

// clamsim-accounts beside the server under test (build/<preset>/server/tools/accounts/).
export function accountsTool() {
  return path.resolve(path.dirname(process.env.CLAMSIM_SERVER), '../tools/accounts/clamsim-accounts');
}

// A fresh accounts file at `file` holding `name`, made by the real clamsim-accounts with the
// password on its standard input, as an administrator would.
export function createAccount(file, name, password) {
  rmSync(file, { force: true });
  mkdirSync(path.dirname(file), { recursive: true });
  execFileSync(accountsTool(), ['--file', file, 'add', name], { input: `${password}\n`, stdio: ['pipe', 'ignore', 'pipe'] });
}

// Whether the server knows a flag (its --help lists it).
export function serverHas(flag) {
  return serverHelp.includes(flag);
}

// extraArgs: more Chromium flags (e.g. --ignore-certificate-errors-spki-list=...)
export async function launchBrowser(extraArgs = []) {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: chromiumPath(),
    timeout: 30000,
    args: [...extraArgs, '--headless=new', '--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader',
      '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-renderer-backgrounding',
      '--disable-background-timer-throttling', '--disable-backgrounding-occluded-windows'],
  });
}

// A gamepad the page sees through navigator.getGamepads; the test moves it with
// page.evaluate(() => window.__e2ePad.axes[0] = -1). Its rumble motor (Chrome's
// vibrationActuator) records every playEffect in __e2ePad.rumbles.
export const VIRTUAL_JOYSTICK = `
  (() => {
    const rumbles = [];
    const pad = {
      id: 'Virtual 3-axis stick with two handles (e2e)', index: 0, connected: true, mapping: '',
      axes: [0, 0, 0, 0, 0],
      buttons: Array.from({ length: 12 }, () => ({ pressed: false, touched: false, value: 0 })),
      timestamp: 0,
      rumbles,
      vibrationActuator: {
        type: 'dual-rumble',
        effects: ['dual-rumble'],
        playEffect(type, params) {
          rumbles.push({ type, ...params, at: performance.now() });
          return Promise.resolve('complete');
        },
        reset() { return Promise.resolve('complete'); },
      },
    };
    window.__e2ePad = pad;
    Object.defineProperty(Navigator.prototype, 'getGamepads', {
      configurable: true,
      value: function getGamepads() { pad.timestamp = performance.now(); return [pad, null, null, null]; },
    });
  })();
`;

// Summary of what the canvas shows: spread of brightness, distinct colours, and a 32 x 24
// thumbnail to compare views. Needs the page opened with ?screenshots (preserveDrawingBuffer).
export async function canvasSignature(page) {
  return page.evaluate(() => {
    const src = document.getElementById('view');
    const w = 32, h = 24;
    const c = document.createElement('canvas');
    c.width = w;
    c.height = h;
    const ctx = c.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(src, 0, 0, w, h);
    const d = ctx.getImageData(0, 0, w, h).data;
    const lum = [];
    const colours = new Set();
    const thumb = [];
    for (let i = 0; i < d.length; i += 4) {
      lum.push(0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2]);
      colours.add(((d[i] >> 3) << 10) | ((d[i + 1] >> 3) << 5) | (d[i + 2] >> 3));
      thumb.push(d[i], d[i + 1], d[i + 2]);
    }
    const mean = lum.reduce((a, b) => a + b, 0) / lum.length;
    const sd = Math.sqrt(lum.reduce((a, b) => a + (b - mean) ** 2, 0) / lum.length);
    return { mean, sd, colours: colours.size, thumb };
  });
}

export function thumbDifference(a, b) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i] - b[i]);
  return s / a.length;
}

// requestAnimationFrame callbacks per second over ms, with the page redrawing every frame.
export async function measureFps(page, ms = 2000) {
  return page.evaluate((ms) => new Promise((resolve) => {
    window.clamsim.setContinuous(true);
    let n = 0;
    const t0 = performance.now();
    const tick = (t) => {
      n += 1;
      if (t - t0 < ms) requestAnimationFrame(tick);
      else {
        window.clamsim.setContinuous(false);
        resolve({ fps: n / ((t - t0) / 1000), renderMs: window.clamsim.stats.renderMs });
      }
    };
    requestAnimationFrame(tick);
  }), ms);
}

// The task's clock starts at the first moved control (not at the connection): hold a key
// until the clock has started (a press shorter than a frame can fall between two), then
// let go.
export async function startTaskClock(page, key = 'KeyW') {
  await page.keyboard.down(key);
  try {
    // started: running, or already over (a task seconds long may end before a look sees it
    // run); the bound only says "never" (a loaded machine under ASan is slow to show it)
    await waitFor('the task clock to start', () => page.evaluate(() => {
      const s = window.clamsim.debug().score;
      return s?.running === true || (s?.finished === true && s.elapsed_s > 0);
    }), { timeoutMs: 30000, everyMs: 20 });
  } finally {
    await page.keyboard.up(key);
  }
}

// axe-core (npm) on the page as it stands: its serious and critical violations, in words.
// Evaluated through the DevTools protocol, which the page's script-src policy rightly does
// not let a <script> tag do.
const AXE_SOURCE = path.join(REPO, 'node_modules/axe-core/axe.min.js');
export async function axeSerious(page) {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(readFileSync(AXE_SOURCE, 'utf8'));
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(', ')}`);
  });
}

// The window sizes every state is checked at: a classroom laptop's and a desktop's.
export const AXE_SIZES = [[1366, 768], [1920, 1080]];

// Resolves after the page has run `n` more animation frames: its loop (which polls the
// controls and draws what changed, every animation frame) has run since the caller acted.
export const animationFrames = (page, n = 3) => page.evaluate((k) => new Promise((resolve) => {
  const step = (left) => (left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1)));
  step(k);
}), n);

// Whether no structure is part-way through its fade in or out in any drawn view
// (occlusion() lists only those faded, at GHOST.opacity once fully faded).
export const fadesDone = (page) => page.evaluate((opacity) => Object.values(window.clamsim.occlusion())
  .every((f) => Object.values(f).every((x) => x === opacity)), GHOST.opacity);

// Resolves once the page has drawn the view `n` more times (it draws on every frame that
// comes, and on every change): a screenshot then shows what the page knew before the call.
export async function drawings(page, n = 3) {
  const drawn = await page.evaluate(() => window.clamsim.stats.draws);
  await waitFor(`${n} more drawings`, () => page.evaluate((k) => window.clamsim.stats.draws >= k, drawn + n),
    { timeoutMs: 30000, everyMs: 50 });
}

// The simulated time of the page's last frame [s] (the server's clock, frame.t), or null.
export const simTime = (page) => page.evaluate(() => window.clamsim.frame?.t ?? null);

// Waits until the page's frames have gone `s` seconds of simulated time on: for what must
// last a while (a clock that must not start, a key that must move nothing), measured on the
// simulation's clock, not the test's.
export async function simSeconds(page, s, what = '') {
  await waitFor('a frame', async () => (await simTime(page)) !== null, { timeoutMs: 20000 });
  const t0 = await simTime(page);
  await waitFor(`${s} s of simulated time ${what} (from t = ${t0})`, async () => (await simTime(page)) >= t0 + s,
    { timeoutMs: 30000 + s * 4000, everyMs: 50 });
}

// Shows view `name` and waits until it is drawn at rest: drawn twice since the switch, and
// no structure part-way through its fade (fadesDone).
export async function showView(page, name) {
  const d0 = await page.evaluate((n) => { window.clamsim.setView(n); return window.clamsim.stats.draws; }, name);
  await waitFor(`the ${name} view drawn, its fading done`, async () => (await page.evaluate(([n, d]) =>
    window.clamsim.view === n && window.clamsim.stats.draws >= d + 2, [name, d0])) && fadesDone(page),
  { timeoutMs: 30000, everyMs: 50 });
}

// Resizes the page and waits until it has laid itself out at that size: the window reports
// it, and two animation frames have run (the page's resize observers and media-query
// listeners run in the first).
export async function resizeAndSettle(page, width, height) {
  await page.setViewportSize({ width, height });
  await waitFor(`the page at ${width}x${height}, laid out`, () => page.evaluate(([w, h]) => {
    if (window.innerWidth !== w || window.innerHeight !== h) return false;
    // each look bounded, so waitFor's own bound holds (a hidden tab runs no animation frames)
    return new Promise((r) => {
      requestAnimationFrame(() => requestAnimationFrame(() => r(true)));
      setTimeout(() => r(false), 2000);
    });
  }, [width, height]), { timeoutMs: 10000 });
}

// The same state at both sizes: resize, let the layout settle, check; the size put back.
export async function axeAtSizes(page, what) {
  const before = page.viewportSize();
  const problems = [];
  for (const [w, h] of AXE_SIZES) {
    await resizeAndSettle(page, w, h);
    for (const p of await axeSerious(page)) problems.push(`${what} at ${w}x${h}: ${p}`);
  }
  await resizeAndSettle(page, before.width, before.height);
  return problems;
}

// What a keycap says -> the key a finger presses, as a trainee reads a key hint: the shipped
// layout (config/keyboard.json), the one place the keys live. Also by signal and direction:
// caps.signal.cable1.plus is the key that reels cable 1 in.
export function keycaps() {
  const raw = JSON.parse(readFileSync(path.join(REPO, 'config/keyboard.json'), 'utf8'));
  const caps = { signal: {} };
  for (const [name, s] of Object.entries(raw.signals)) {
    for (const b of [s.plus, s.minus]) caps[b.label] = b.key;
    caps.signal[name] = { plus: s.plus.key, minus: s.minus.key };
  }
  caps[raw.actions.half_speed.label] = raw.actions.half_speed.key;
  caps.half = raw.actions.half_speed.key;
  return caps;
}

// A trainee's hands on the keyboard: chords of keys, changed no sooner than minChangeS of
// simulated time (the screen's clock, `look().time`) after the last change. `look` reads the
// screen and returns at least {time}.
export function humanHands(page, look, { minChangeS = 0.3 } = {}) {
  let lastChange = -Infinity;
  let held = [];
  const waitSim = async (until, what, timeoutMs = 30000) => {
    await waitFor(what, async () => (await look()).time >= until, { timeoutMs, everyMs: 20 });
  };
  const press = async (keys) => {
    await waitSim(lastChange + minChangeS, 'the earliest next key change');
    for (const k of [...held].reverse()) if (!keys.includes(k)) await page.keyboard.up(k);
    for (const k of keys) if (!held.includes(k)) await page.keyboard.down(k);
    held = [...keys];
    lastChange = (await look()).time;
  };
  return {
    look,
    press,
    // Holds `keys` until `done(screen)` (at least the shortest press, at most timeoutMs), then
    // lets go; the screen when it let go.
    async hold(keys, done, { timeoutMs = 60000, what = keys.join(' + ') } = {}) {
      await press(keys);
      let last;
      try {
        await waitSim(lastChange + minChangeS, 'the shortest press');
        await waitFor(`"${what}" to do its work`, async () => done((last = await look())), { timeoutMs, everyMs: 20 });
      } finally {
        await press([]);
      }
      return last;
    },
    // Hands off for `s` of simulated time.
    async rest(s) {
      await waitSim((await look()).time + s, `${s} s at rest`);
    },
  };
}
