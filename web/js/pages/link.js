// The connection to the server, shared by every page: the server's rules first (GET
// /api/client-config, a class code asked for only when the server requires one), then one
// WebSocket that reconnects with backoff; what the header and the banner say about it; a
// refusal that is final (close 1008) shown with the names to choose from. The page says
// which URL it connects to (c.page.url()) and which of its own closes are final
// (c.page.onClose(s)). Its state is linkState(), kept in the page's context as c.link;
// the counters of frames and drawings are statsState(), as c.stats.

import { parseClientConfig, pingMessage } from '../protocol.js';
import { Connection } from '../connection.js';
import { classCodeRefusal, createClassCodeForm } from '../class-code.js';
import { describeRefusal, showRefusal } from '../refusal.js';
import { useKeyboardLayout, keyboardUnavailable } from './operator.js';

const PING_PERIOD_MS = 1000;
// the class code, when the server asks for one: kept for this tab, asked again if refused
const CLASS_CODE_KEY = 'clamsim.classCode';

export function linkState() {
  return {
    link: { status: 'connecting' },   // connection.js's last state
    sessionId: null,        // hello.session, as /api/sessions names it
    drainNotice: null,      // the server's latest drain message while it shuts down
    refusal: null,          // a refusal of the connection (close 1008) no page took: final
    serverLists: { scenarios: [], models: [] },  // client-config's names, offered on a refusal
    classCode: null,        // the class's code, when the server requires one
  };
}

export function statsState() {
  return { frames: 0, dropped: 0, lastSeq: -1, session: null, arrivals: [], renders: [],
    latencyMs: NaN, pingId: 0, renderMs: 0, connections: 0, draws: 0, drawsBetween: 0, framesSeen: 0, controlsSent: 0 };
}

// How many of the times in list (ms) fall in the last windowMs, per second; older ones go.
export function rate(list, now, windowMs = 2000) {
  while (list.length && list[0] < now - windowMs) list.shift();
  return list.length / (windowMs / 1000);
}

export function showStats(c, now = performance.now()) {
  const s = c.stats;
  c.hud.link({ frames: s.frames, dropped: s.dropped, rateHz: rate(s.arrivals, now),
    fps: rate(s.renders, now), latencyMs: s.latencyMs, session: s.session,
    inputMs: c.probe.summary().toDraw.p50 });
}

// The header's words, their level and the banner's, for the link as it stands.
function describeLink(c) {
  const page = c.page.linkProblem();
  if (page) return page;
  const { link: s, refusal, drainNotice } = c.link;
  if (refusal) return ['refused by the server', 'error', ''];  // #refusal says why and what to do
  if (drainNotice && s.status === 'connected')
    return [`server stopping in ${drainNotice.secondsLeft} s`, 'warn', drainNotice.message];
  const secs = s.retryAt ? Math.max(0, Math.ceil((s.retryAt - Date.now()) / 1000)) : 0;
  const why = s.reason ? ` (${s.reason})` : '';
  switch (s.status) {
    case 'connected': return [`connected`, 'ok', ''];
    case 'connecting': return [`connecting…`, 'warn', ''];
    case 'reconnecting': return [`connection lost${why}, reconnecting in ${secs} s`, 'warn',
      `Connection to the server lost${why}. Reconnecting in ${secs} s…`];
    case 'full': return [`no session free, retry in ${secs} s`, 'error',
      `The server takes no new session now${why}. Retrying in ${secs} s…`];
    case 'unreachable': return [`unreachable, retry in ${secs} s`, 'error',
      `Server unreachable at ${s.url}${why}. Retrying in ${secs} s (attempt ${s.attempt}). Controls are not reaching the machine.`];
    default: return [s.status, 'warn', ''];
  }
}

export function showLink(c) {
  const [text, level, banner] = describeLink(c);
  c.hud.connection(text, level);
  c.hud.banner(banner);
}

function onOpen(c) {
  c.link.drainNotice = null;
  Object.assign(c.stats, { frames: 0, dropped: 0, lastSeq: -1, session: null, arrivals: [], latencyMs: NaN });
  c.stats.connections += 1;
  showStats(c);
  c.controls.interlock = { on: true, why: 'new session' };
  // no controls until this connection's hello: the server counts them from there
  c.controls.helloSeen = false;
}

// A close the page itself does not take: a refused class code (asked again), any other
// policy close before the hello (final), or a link state to show. True if it was final.
function onRefusal(c, s) {
  const refused = classCodeRefusal(s.code, s.rawReason);
  if (refused) {
    // no retry with a refused code: ask again (stop() reports the link as closed)
    window.sessionStorage.removeItem(CLASS_CODE_KEY);
    c.classCodeForm.ask(`Refused by the server: ${refused}`);
    c.connection.stop();
    return true;
  }
  // any other policy close before the hello (an unknown scenario or model, an origin not
  // allowed) is a refusal: the same URL would be refused again, so no retry; say why and
  // what to do instead. One after the hello (flooding) ended a session: a new one may start
  if (s.code === 1008 && !c.controls.helloSeen) {
    c.link.refusal = describeRefusal(s.rawReason, c.link.serverLists, window.location.href);
    showRefusal(document.getElementById('refusal'), c.link.refusal);
    c.connection.stop();
    showLink(c);
    return true;
  }
  return false;
}

function onState(c, s) {
  if (c.page.onClose(s) || onRefusal(c, s)) return;
  c.link.link = s;
  if (s.status !== 'connected') {
    c.stats.session = null;
    c.link.sessionId = null;
    c.trainee.disconnected();
    c.traineeUi.show(c.trainee.view());
  }
  showLink(c);
}

// The connection (not started) and the class code's form.
export function createLink(c, onMessage) {
  c.classCodeForm = createClassCodeForm({ form: document.getElementById('class-code'),
    onCode(code) {
      window.sessionStorage.setItem(CLASS_CODE_KEY, code);
      c.link.classCode = code;
      c.connection.url = c.page.url();
      c.connection.start();
    } });
  c.connection = new Connection({ url: c.page.url(), onMessage, onOpen: () => onOpen(c), onState: (s) => onState(c, s) });
}

// A ping a second (the HUD's round trip), and the retry's count down while not connected.
export function startPings(c) {
  setInterval(() => {
    if (c.connection.isOpen) c.connection.send(pingMessage(++c.stats.pingId, performance.now()));
    if (c.link.link.status !== 'connected') showLink(c);  // count the retry down
  }, PING_PERIOD_MS);
}

// The server's rules come first (GET /api/client-config): a class code is asked for only
// when the server requires one.
export async function startConnection(c) {
  let config = { classCodeRequired: false };
  try {
    const res = await fetch('/api/client-config', { cache: 'no-store' });
    config = parseClientConfig(await res.json());
    c.link.serverLists = { scenarios: config.scenarios, models: config.models };
    useKeyboardLayout(c, config.keyboard);
  } catch (e) {
    c.hud.note(`client-config: ${e.message ?? e}; connecting without a class code`);
    keyboardUnavailable(c, `no layout: GET /api/client-config failed`);
  }
  const saved = window.sessionStorage.getItem(CLASS_CODE_KEY);
  // an observer is an instructor (the login cookie), not a member of the class
  if (config.classCodeRequired && !saved && !c.choice.watchOnly) return c.classCodeForm.ask();
  if (config.classCodeRequired) c.link.classCode = saved;
  c.connection.url = c.page.url();
  c.connection.start();
}
