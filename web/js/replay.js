// Debrief replay (docs/web-client.md "Debrief replay"): the page at
// index.html?replay=NAME plays a recorded run that the server re-simulates. Pure: the page's
// and the socket's URLs, the replay messages, the state they leave, the timeline's marker
// positions, the events in words, the series as uPlot wants them. No DOM.

import { eventKind } from './event-kinds.js';

// ---- URLs ---------------------------------------------------------------------------------

function whole(v) {
  if (v === null || v === '' || !/^\d+$/.test(v)) return null;
  return Number(v);
}

// ?replay=NAME[&ticket=T][&from=K] -> {name, ticket, from}, or null on a page that is not a
// replay. A malformed `from` is ignored (the replay starts at the beginning).
export function replayParam(search) {
  const q = new URLSearchParams(search);
  const name = q.get('replay');
  if (name === null || name === '') return null;
  return { name, ticket: q.get('ticket') || null, from: whole(q.get('from')) };
}

// The WebSocket URL that replays recording `name` (any other query of wsUrl is kept).
export function replayUrl(wsUrl, { name, ticket = null }) {
  const u = new URL(wsUrl);
  u.searchParams.set('replay', name);
  if (ticket) u.searchParams.set('ticket', ticket);
  return u.toString();
}

// The page that replays `name`: from the instructor's report list (from = the frame where
// that task's attempt began) or the trainee's report (with the trainee's ticket).
export function replayPageUrl(name, { ticket = null, from = null } = {}) {
  const q = new URLSearchParams({ replay: name });
  if (ticket) q.set('ticket', ticket);
  if (Number.isInteger(from) && from >= 0) q.set('from', String(from));
  return `index.html?${q}`;
}

// ?takeover=T: a live session that starts where a replay stood ("Take over from here").
export function takeoverParam(search) {
  const v = new URLSearchParams(search).get('takeover');
  return v === null || v === '' ? null : v;
}

export function takeoverUrl(wsUrl, ticket) {
  const u = new URL(wsUrl);
  u.searchParams.set('takeover', ticket);
  return u.toString();
}

export function takeoverPageUrl(ticket) {
  return `index.html?${new URLSearchParams({ takeover: ticket })}`;
}

// ---- messages -----------------------------------------------------------------------------

// Page -> server.
export function playMessage(playing) { return { type: 'replay', play: Boolean(playing) }; }
export function speedMessage(speed) { return { type: 'replay', speed }; }
export function seekMessage(k) { return { type: 'replay', seek_k: Math.round(k) }; }
export function takeOverMessage() { return { type: 'take_over' }; }
export function replayTicketMessage() { return { type: 'replay_ticket' }; }

function fin(v) { return typeof v === 'number' && Number.isFinite(v); }
function numbers(a) { return Array.isArray(a) && a.every(fin) ? a : null; }

export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16];

// hello.replay -> what the page shows about the recording; null when absent or unusable
// (the recording's frame period is the server's: a replay without one is not played).
export function parseReplayInfo(r) {
  if (!r || typeof r !== 'object' || typeof r.recording !== 'string') return null;
  if (!fin(r.frame_period_s) || !(r.frame_period_s > 0)) return null;
  const speeds = numbers(r.speeds)?.filter((s) => s > 0) ?? [];
  return {
    recording: r.recording,
    label: typeof r.label === 'string' ? r.label : '',
    trainee: typeof r.trainee === 'string' ? r.trainee : '',
    frames: Number.isInteger(r.frames) && r.frames >= 0 ? r.frames : 0,
    framePeriodS: r.frame_period_s,
    startUtc: typeof r.start_utc === 'string' ? r.start_utc : '',
    complete: r.complete !== false,   // false: the file has no end yet (live, or a crash)
    speeds: speeds.length ? speeds : SPEEDS.slice(),
  };
}

// One replay message (already JSON-parsed) -> a checked copy, or null when malformed.
export function parseReplayMessage(m) {
  if (!m || typeof m !== 'object') return null;
  switch (m.type) {
    case 'replay_progress':
      return fin(m.done) && fin(m.of) ? { type: m.type, done: m.done, of: m.of } : null;
    case 'replay_state':
      return Number.isInteger(m.k) ? { type: m.type, playing: m.playing === true,
        speed: fin(m.speed) && m.speed > 0 ? m.speed : 1, k: m.k } : null;
    case 'replay_timeline': {
      const events = (Array.isArray(m.events) ? m.events : [])
        .filter((e) => e && Number.isInteger(e.k) && typeof e.kind === 'string')
        .map((e) => ({ k: e.k, t: fin(e.t) ? e.t : null, kind: e.kind, text: typeof e.text === 'string' ? e.text : '',
          value: Number.isInteger(e.value) ? e.value : null }));
      return { type: m.type, events, series: parseSeries(m.series) };
    }
    case 'take_over':
      return typeof m.ticket === 'string' && m.ticket ? { type: m.type, ticket: m.ticket } : null;
    case 'replay_ticket':
      return typeof m.ticket === 'string' && typeof m.recording === 'string'
        ? { type: m.type, recording: m.recording, ticket: m.ticket } : null;
    default:
      return null;
  }
}

// series: k and t, and the rope tensions (N) and joint speeds (deg/s, deg/s, m/s) at them;
// a channel of the wrong length is dropped, not the whole series.
export function parseSeries(s) {
  if (!s || typeof s !== 'object') return null;
  const k = numbers(s.k), t = numbers(s.t);
  if (!k || !t || k.length !== t.length) return null;
  const channels = (a) => (Array.isArray(a) ? a.map((c) => (numbers(c)?.length === k.length ? c : null)) : []);
  return { k, t, tension: channels(s.tension_N), velocity: channels(s.joint_velocity) };
}

// ---- state --------------------------------------------------------------------------------

export function initialReplay() {
  return { info: null, session: null, loads: [], progress: null, ready: false, events: [], series: null,
    playing: false, speed: 1, k: null, error: null };
}

// What the page knows after `msg` (hello with its replay, the replay messages, a display
// frame, an error). Returns a new state; `msg` types it does not know leave it as it was.
export function replayReduce(s, msg) {
  switch (msg?.type) {
    case 'hello':
      // a reconnect prepares the run again
      return { ...initialReplay(), info: parseReplayInfo(msg.replay), session: msg.session ?? null,
        loads: Array.isArray(msg.loads) ? msg.loads.map((l) => String(l?.name ?? l?.id ?? '')) : [],
        speed: s.speed, k: s.k };
    case 'replay_progress':
      return { ...s, progress: { done: msg.done, of: msg.of } };
    case 'replay_timeline':
      return { ...s, ready: true, progress: null, events: msg.events, series: msg.series };
    case 'replay_state':
      return { ...s, ready: true, playing: msg.playing, speed: msg.speed, k: msg.k };
    case 'display':
      return { ...s, k: msg.seq + 1 };
    case 'error':
      return { ...s, error: msg.message || msg.code || 'error' };
    default:
      return s;
  }
}

// The first frame index of the timeline (the series says; recordings count from 1).
export function firstK(state) {
  return state.series?.k?.[0] ?? 1;
}

export function lastK(state) {
  return Math.max(state.info?.frames ?? 0, firstK(state));
}

// 0..1 along the timeline for frame k.
export function fractionOfK(k, first, last) {
  if (!(last > first)) return 0;
  return Math.min(1, Math.max(0, (k - first) / (last - first)));
}

export function kAtFraction(f, first, last) {
  return Math.round(first + Math.min(1, Math.max(0, f)) * Math.max(0, last - first));
}

// Seconds since the recording's start at frame k: from the series (linear between its
// points), else (k - 1) frame periods.
export function timeOfK(k, series, framePeriodS) {
  const ks = series?.k, ts = series?.t;
  if (ks && ks.length && ts) {
    let lo = 0, hi = ks.length - 1;
    if (k <= ks[0]) return ts[0] + (k - ks[0]) * framePeriodS;
    if (k >= ks[hi]) return ts[hi] + (k - ks[hi]) * framePeriodS;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (ks[mid] <= k) lo = mid;
      else hi = mid;
    }
    const f = (k - ks[lo]) / (ks[hi] - ks[lo]);
    return ts[lo] + f * (ts[hi] - ts[lo]);
  }
  return Math.max(0, k - 1) * framePeriodS;
}

// The frame at time t (a click on a plot): the inverse of timeOfK.
export function kAtTime(t, series, framePeriodS) {
  const ks = series?.k, ts = series?.t;
  if (ks && ks.length && ts) {
    let lo = 0, hi = ts.length - 1;
    if (t <= ts[0]) return ks[0];
    if (t >= ts[hi]) return ks[hi];
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (ts[mid] <= t) lo = mid;
      else hi = mid;
    }
    const f = ts[hi] > ts[lo] ? (t - ts[lo]) / (ts[hi] - ts[lo]) : 0;
    return Math.round(ks[lo] + f * (ks[hi] - ks[lo]));
  }
  return Math.round(t / framePeriodS) + 1;
}

// ---- words --------------------------------------------------------------------------------

// "1:05.3" (minutes, seconds with a tenth); hours when the run was that long.
export function formatReplayTime(t) {
  if (!fin(t)) return '–';
  const tenths = Math.round(Math.max(0, t) * 10);
  const s = Math.floor(tenths / 10), m = Math.floor(s / 60), h = Math.floor(m / 60);
  const ss = `${String(s % 60).padStart(2, '0')}.${tenths % 10}`;
  return h ? `${h}:${String(m % 60).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

// A live session taken over from a replay (hello.taken_over): what the notice tells the
// person now at the controls.
export function takenOverNotice(takenOver, framePeriodS) {
  const at = Number.isInteger(takenOver?.k) ? formatReplayTime(takenOver.k * framePeriodS) : '–';
  return { from: 'Take-over', text: `you have the controls from ${at} of the replayed run; `
    + 'the machine and the task are exactly as they were then' };
}

// Without the server's sentence: the kind's word and what its value says (the load's name
// by its index for a grip or release, the count of hits in one frame, the lesson's step).
function valueWords(e, loads) {
  const kind = eventKind(e.kind);
  const v = e.value;
  if (!Number.isInteger(v)) return kind.word;
  const load = loads?.[v];
  if (load && e.kind === 'grip') return `Gripped ${load}`;
  if (load && e.kind === 'release') return `Let go of ${load}`;
  if (e.kind === 'lesson_step') return `Lesson: step ${v + 1}`;
  if (e.kind === 'delivered' && v > 0) return `${kind.word} (${v} so far)`;
  if ((kind.group === 'penalty' || e.kind === 'load_impact') && v > 1) return `${kind.word} (x${v})`;
  return kind.word;
}

// One event in words: its time and the server's sentence (or the kind's word and value);
// loads: the scene's load names by index.
export function eventWords(e, series, framePeriodS, loads = []) {
  const t = fin(e.t) ? e.t : timeOfK(e.k, series, framePeriodS);
  const what = e.text || valueWords(e, loads);
  return { time: formatReplayTime(t), text: what, title: `${formatReplayTime(t)}  ${eventKind(e.kind).word}: ${what}` };
}

// The markers on the timeline bar: where (0..1), how tall, which colour, the tooltip.
// Events closer than gapPx on a `width`-pixel bar share one marker: it goes to the first of
// them, stands tall and takes a penalty's colour if any of them is one, and its tooltip
// names all of them.
export function timelineMarkers(events, { first, last, series = null, framePeriodS, width = 1000, gapPx = 12, loads = [] }) {
  const out = [];
  let prev = null;
  for (const e of [...events].sort((a, b) => a.k - b.k)) {
    const at = fractionOfK(e.k, first, last);
    const kind = eventKind(e.kind);
    const { title } = eventWords(e, series, framePeriodS, loads);
    const penalty = kind.group === 'penalty';
    if (prev && (at - prev.at) * width < gapPx) {
      prev.title += `\n${title}`;
      prev.count += 1;
      if (penalty && !prev.tall) Object.assign(prev, { kind: e.kind, colour: kind.colour, icon: kind.icon, tall: true });
      continue;
    }
    prev = { k: e.k, kind: e.kind, at, colour: kind.colour, icon: kind.icon, tall: penalty, title, count: 1 };
    out.push(prev);
  }
  return out;
}

// "Replay of Ada's run (session 3), recorded 2026-11-24 17:27" (the browser's local time).
export function replayBanner(info, session) {
  if (!info) return 'Replay';
  const who = info.trainee ? `${info.trainee}’s run` : 'a run';
  const which = session !== null && session !== undefined ? ` (session ${session})` : info.label ? ` (${info.label})` : '';
  const when = localMinute(info.startUtc);
  // an open file: a session still running (a trainee's own, from its report), or a crash
  const cut = info.complete === false ? ' (unfinished recording)' : '';
  return `Replay of ${who}${which}${when ? `, recorded ${when}` : ''}${cut}`;
}

function localMinute(iso) {
  const d = iso ? new Date(iso) : null;
  if (!d || Number.isNaN(d.getTime())) return '';
  const two = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

// The speed select's entries: the server's speeds, "0.25x" .. "16x".
export function speedChoices(speeds = SPEEDS) {
  return speeds.map((v) => ({ value: v, label: `${v}x` }));
}

// The preparation's words under its bar: "45 %: 900 of 2000 frames re-simulated".
export function progressWords(p) {
  if (!p || !(p.of > 0)) return 'Waiting for the server…';
  const pct = Math.min(100, Math.floor((100 * p.done) / p.of));
  return `${pct} %: ${p.done} of ${p.of} frames re-simulated`;
}

// What "play" sends: at the end of the recording it starts again from the beginning.
export function playCommand(state) {
  if (state.playing) return playMessage(false);
  if (state.k !== null && state.k >= lastK(state)) return { ...seekMessage(firstK(state)), play: true };
  return playMessage(true);
}

// ---- plots --------------------------------------------------------------------------------

// uPlot's data ([x, y1, y2...]) for the two plots: the rope tensions in kN, and the joint
// speeds (swing and boom in deg/s on the left axis, telescope in m/s on the right) as the
// series carries them, the units of display.joint_velocity. A missing channel is all nulls
// so the plot keeps its legend.
export function plotData(series) {
  if (!series) return null;
  const n = series.t.length;
  const map = (c, f) => (c ? c.map(f) : new Array(n).fill(null));
  const ten = series.tension ?? [];
  const vel = series.velocity ?? [];
  return {
    tension: [series.t, map(ten[0], (v) => v / 1000), map(ten[1], (v) => v / 1000)],
    speeds: [series.t, map(vel[0], (v) => v), map(vel[1], (v) => v), map(vel[2], (v) => v)],
  };
}
