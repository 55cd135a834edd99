// The replay page's own parts (docs/web-client.md "Debrief replay"): the banner,
// the preparation's progress, the bottom bar (play, speed, the timeline with its event
// markers, take over), the list of events and the plots beside the view (uPlot, loaded only
// here). replay.js holds the rules and the words; main.js draws the frames as live.

import { el, setText } from './dom.js';
import {
  replayReduce, initialReplay, replayBanner, progressWords,
  speedChoices, timelineMarkers, eventWords, firstK, lastK, fractionOfK, kAtFraction,
  timeOfK, kAtTime, formatReplayTime, plotData, playCommand, speedMessage, seekMessage, takeOverMessage,
  takeoverPageUrl, replayPageUrl, replayTicketMessage,
} from './replay.js';
import { eventKind } from './event-kinds.js';

const UPLOT_CSS = '/vendor/uplot/uPlot.min.css';

// The page's replay parts; their state (the replay's, the drag, the take-over) and elements
// live in one object (ui) that the functions below share.
export function createReplayUi({ doc = document, request, send, go, note = () => {} }) {
  const ui = {
    doc, request, send, go, note,
    state: initialReplay(),
    fromSent: false,
    dragging: null,     // the fraction under the pointer while the playhead is dragged
    takingOver: false,
    plots: [],          // {u, cursor, t} for each uPlot
    uplotModule: null,
  };
  doc.body.dataset.replay = 'true';
  ui.banner = doc.getElementById('replay-banner');
  ui.prep = doc.getElementById('replay-prep');
  ui.side = doc.getElementById('replay-side');
  ui.bar = doc.getElementById('replay-bar');
  ui.banner.hidden = false;
  ui.side.hidden = false;
  ui.bar.hidden = false;
  setText(ui.banner, 'Replay: connecting…');
  buildPrep(ui);
  buildBar(ui);
  buildSide(ui);
  new ResizeObserver(() => resizePlots(ui)).observe(ui.side);
  // the markers that share a place depend on the bar's width
  new ResizeObserver(() => { if (ui.state.ready) drawTimeline(ui); }).observe(ui.track);
  bindButtons(ui);
  bindTrack(ui);
  bindSpaceBar(ui);
  return {
    get state() { return ui.state; },
    // a replay message, as protocol.js checked it
    message(m) { apply(ui, m); },
    // the hello (parsed by protocol.js) with its raw `replay` object
    hello(msg, rawReplay) { apply(ui, { type: 'hello', session: msg.session, replay: rawReplay, loads: msg.scene?.loads }); },
    frame(f) {
      if (ui.dragging !== null) return;
      ui.state = replayReduce(ui.state, f);
      position(ui);
    },
    error(m) { apply(ui, { type: 'error', message: m.message, code: m.code }); },
    // the socket closed for good (a refusal): say why where the replay would be
    refused(why) {
      ui.prep.hidden = false;
      ui.prepBar.value = 0;
      setText(ui.prepText, `No replay: ${why}`);
      setText(ui.banner, `Replay not available: ${why}`);
    },
  };
}

// ---- preparation ----
function buildPrep(ui) {
  ui.prepText = el('p', { id: 'replay-prep-text' }, 'Waiting for the server…');
  ui.prepBar = el('progress', { id: 'replay-progress', max: '1' });
  ui.prep.replaceChildren(el('h2', {}, 'Preparing the replay'), ui.prepBar, ui.prepText,
    el('p', { class: 'hint' }, 'The server re-simulates the whole run once, from the recorded controls.'));
  ui.prep.hidden = false;
}

// ---- bottom bar ----
function buildBar(ui) {
  ui.play = el('button', { type: 'button', id: 'replay-play', class: 'primary', title: 'Play or pause (space bar)', disabled: '' }, '▶ Play');
  ui.speed = el('select', { id: 'replay-speed', 'aria-label': 'Replay speed', title: 'Replay speed' });
  ui.clock = el('span', { id: 'replay-time', class: 'replay-time' }, '–');
  ui.fill = el('div', { class: 'replay-fill' });
  ui.head = el('div', { class: 'replay-head' });
  ui.marks = el('div', { class: 'replay-marks' });
  ui.loading = el('div', { class: 'replay-loading' });
  ui.track = el('div', { class: 'replay-track', id: 'replay-track', role: 'slider', tabindex: '0',
    'aria-label': 'Replay position', 'aria-valuemin': '0', 'aria-valuemax': '0', 'aria-valuenow': '0' },
  ui.loading, ui.fill, ui.head);
  ui.takeOver = el('button', { type: 'button', id: 'replay-takeover', disabled: '',
    title: 'Start a live session from this moment: the machine as it is now, and you at the controls' }, 'Take over from here');
  ui.message = el('span', { id: 'replay-message', class: 'replay-message', role: 'alert', hidden: '' });
  // the event markers (buttons) lie over the slider, beside it in the tree: a control inside a
  // slider is one no screen reader can reach
  ui.bar.replaceChildren(ui.play, ui.speed, ui.clock,
    el('div', { class: 'replay-timeline' }, el('div', { class: 'replay-rail' }, ui.track, ui.marks)), ui.takeOver, ui.message);
  fillSpeeds(ui, undefined);
}

function fillSpeeds(ui, list) {
  ui.speed.replaceChildren(...speedChoices(list).map((c) => el('option', { value: String(c.value) }, c.label)));
  ui.speed.value = String(ui.state.speed);
}

// ---- beside the view: plots and events ----
function buildSide(ui) {
  ui.tensionBox = el('div', { class: 'replay-plot', id: 'replay-plot-tension' });
  ui.speedsBox = el('div', { class: 'replay-plot', id: 'replay-plot-speeds' });
  ui.plotNote = el('p', { class: 'hint', id: 'replay-plot-note' }, 'Plots appear once the replay is ready.');
  ui.eventList = el('ol', { class: 'replay-events', id: 'replay-events' });
  ui.side.replaceChildren(el('h3', {}, 'Rope tensions (kN)'), ui.tensionBox, el('h3', {}, 'Joint speeds'), ui.speedsBox,
    ui.plotNote, el('h3', {}, 'Events ', el('span', { class: 'hint' }, '(click to go there)')), ui.eventList);
}

// the two plots share what the events list leaves of the column's height
function plotSize(ui) {
  return { width: Math.max(200, ui.side.clientWidth - 16),
    height: Math.max(100, Math.min(240, Math.floor((ui.side.clientHeight - 300) / 2))) };
}

function showError(ui, text) {
  ui.message.hidden = !text;
  setText(ui.message, text ?? '');
}

function seek(ui, k) {
  if (!ui.state.ready) return;
  const first = firstK(ui.state), last = lastK(ui.state);
  k = Math.min(last, Math.max(first, Math.round(k)));
  ui.send(seekMessage(k));
  // show where it goes at once; the frame and replay_state follow
  ui.state = { ...ui.state, k };
  position(ui);
}

// ---- drawing the state ----
function position(ui) {
  const { state } = ui;
  const first = firstK(state), last = lastK(state);
  const k = ui.dragging !== null ? kAtFraction(ui.dragging, first, last) : state.k ?? first;
  const f = fractionOfK(k, first, last);
  const pct = `${(f * 100).toFixed(2)}%`;
  ui.fill.style.width = pct;
  ui.head.style.left = pct;
  const period = state.info?.framePeriodS;   // none before the hello: the times read '–'
  const t = timeOfK(k, state.series, period);
  const total = timeOfK(last, state.series, period);
  setText(ui.clock, `${formatReplayTime(t)} / ${formatReplayTime(total)}`);
  ui.track.setAttribute('aria-valuenow', String(k));
  ui.track.setAttribute('aria-valuetext', formatReplayTime(t));
  for (const p of ui.plots) moveCursor(p, t);
}

function controls(ui) {
  const { state } = ui;
  setText(ui.play, state.playing ? '❚❚ Pause' : '▶ Play');
  ui.play.setAttribute('aria-pressed', String(state.playing));
  ui.play.disabled = !state.ready;
  ui.takeOver.disabled = !state.ready || ui.takingOver;
  ui.speed.disabled = !state.ready;
  if (ui.doc.activeElement !== ui.speed) ui.speed.value = String(state.speed);
  ui.track.setAttribute('aria-valuemin', String(firstK(state)));
  ui.track.setAttribute('aria-valuemax', String(lastK(state)));
  ui.track.dataset.ready = String(state.ready);
}

function drawTimeline(ui) {
  const { state } = ui;
  const first = firstK(state), last = lastK(state);
  const period = state.info?.framePeriodS;
  const markers = timelineMarkers(state.events, { first, last, series: state.series, framePeriodS: period,
    width: Math.max(200, ui.track.clientWidth || 1000), loads: state.loads });
  // styles through the CSSOM: the server's Content-Security-Policy refuses style attributes
  ui.marks.replaceChildren(...markers.map((m) => {
    const b = el('button', { type: 'button', class: 'replay-mark', 'data-kind': m.kind,
      'data-k': String(m.k), 'data-tall': String(m.tall), title: m.title, 'aria-label': m.title }, m.icon);
    b.style.left = `${(m.at * 100).toFixed(2)}%`;
    b.style.setProperty('--mark', m.colour);
    return b;
  }));
  ui.eventList.replaceChildren(...state.events.map((e) => {
    const w = eventWords(e, state.series, period, state.loads);
    const kind = eventKind(e.kind);
    const b = el('button', { type: 'button', class: 'replay-event', 'data-kind': e.kind, 'data-k': String(e.k), title: w.title },
      el('span', { class: 'ev-icon', 'aria-hidden': 'true' }, kind.icon), el('span', { class: 'ev-time' }, w.time),
      el('span', { class: 'ev-text' }, w.text));
    b.style.setProperty('--mark', kind.colour);
    return el('li', {}, b);
  }));
  if (!state.events.length) ui.eventList.append(el('li', { class: 'hint' }, 'No events in this run.'));
}

// ---- plots (uPlot) ----
async function loadUplot(ui) {
  if (ui.uplotModule) return ui.uplotModule;
  if (!ui.doc.querySelector(`link[href="${UPLOT_CSS}"]`)) {
    ui.doc.head.append(el('link', { rel: 'stylesheet', href: UPLOT_CSS }));
  }
  ui.uplotModule = (await import('uplot')).default;
  return ui.uplotModule;
}

function moveCursor(p, t) {
  if (p.t === t) return;
  p.t = t;
  const x = p.u.valToPos(t, 'x');
  p.cursor.style.transform = `translateX(${Math.round(x)}px)`;
  p.cursor.hidden = !(x >= 0 && x <= p.u.over.clientWidth + 1);
}

async function drawPlots(ui) {
  const data = plotData(ui.state.series);
  if (!data) {
    setText(ui.plotNote, 'This recording has no series to plot.');
    return;
  }
  let UPlot;
  try {
    UPlot = await loadUplot(ui);
  } catch (e) {
    setText(ui.plotNote, `Plots unavailable: uPlot did not load (${e.message ?? e}).`);
    return;
  }
  for (const p of ui.plots) p.u.destroy();
  ui.plots.length = 0;
  for (const u of newPlots(ui, UPlot, data)) {
    const cursor = el('div', { class: 'replay-cursor' });
    u.over.append(cursor);
    // a click on a plot goes to that moment
    u.over.addEventListener('click', (ev) => {
      const rect = u.over.getBoundingClientRect();
      seek(ui, kAtTime(u.posToVal(ev.clientX - rect.left, 'x'), ui.state.series, ui.state.info?.framePeriodS));
    });
    ui.plots.push({ u, cursor, t: null });
  }
  ui.plotNote.hidden = true;
  position(ui);
}

// the rope tensions' plot and the joint speeds' plot, in their boxes
function newPlots(ui, UPlot, data) {
  const axis = { stroke: '#8a9aa8', grid: { stroke: '#2e3a45', width: 1 }, ticks: { stroke: '#2e3a45', width: 1 } };
  const xAxis = { ...axis, values: (u, vals) => vals.map((v) => formatReplayTime(v).replace(/\.\d$/, '')) };
  const common = { ...plotSize(ui), legend: { live: false }, cursor: { y: false, drag: { x: false, y: false } },
    scales: { x: { time: false } } };
  const tension = new UPlot({ ...common, series: [{ label: 't' },
    { label: 'rope 1', stroke: '#4aa3df', width: 1.5 }, { label: 'rope 2', stroke: '#e8b23a', width: 1.5 }],
  axes: [xAxis, { ...axis, size: 42 }] }, data.tension, ui.tensionBox);
  const speeds = new UPlot({ ...common,
    scales: { x: { time: false }, deg: {}, m: {} },
    series: [{ label: 't' },
      { label: 'swing °/s', stroke: '#57c26f', width: 1.5, scale: 'deg' },
      { label: 'boom °/s', stroke: '#ef5b4c', width: 1.5, scale: 'deg' },
      { label: 'telescope m/s', stroke: '#c77dff', width: 1.5, scale: 'm' }],
    axes: [xAxis, { ...axis, scale: 'deg', size: 42 }, { ...axis, scale: 'm', side: 1, size: 40, grid: { show: false } }] },
  data.speeds, ui.speedsBox);
  return [tension, speeds];
}

function resizePlots(ui) {
  const size = plotSize(ui);
  for (const p of ui.plots) {
    p.u.setSize(size);
    p.t = null;
  }
  position(ui);
}

// ---- input ----
function bindButtons(ui) {
  ui.play.addEventListener('click', () => ui.send(playCommand(ui.state)));
  ui.speed.addEventListener('change', () => ui.send(speedMessage(Number(ui.speed.value))));
  ui.takeOver.addEventListener('click', () => {
    ui.takingOver = true;
    showError(ui, null);
    setText(ui.takeOver, 'Starting a live session…');
    ui.send(takeOverMessage());
    controls(ui);
  });
  const onSeekButton = (ev) => {
    const b = ev.target.closest('[data-k]');
    if (b) seek(ui, Number(b.dataset.k));
  };
  ui.marks.addEventListener('click', (ev) => {
    ev.stopPropagation();
    onSeekButton(ev);
  });
  ui.marks.addEventListener('pointerdown', (ev) => ev.stopPropagation());
  ui.eventList.addEventListener('click', onSeekButton);
}

// the playhead: dragged with the pointer, or stepped with the keys a slider has
function bindTrack(ui) {
  const { track } = ui;
  const fractionAt = (ev) => {
    const r = track.getBoundingClientRect();
    return r.width > 0 ? (ev.clientX - r.left) / r.width : 0;
  };
  track.addEventListener('pointerdown', (ev) => {
    if (!ui.state.ready) return;
    track.setPointerCapture(ev.pointerId);
    ui.dragging = fractionAt(ev);
    position(ui);
  });
  track.addEventListener('pointermove', (ev) => {
    if (ui.dragging === null) return;
    ui.dragging = fractionAt(ev);
    position(ui);
  });
  const endDrag = (ev) => {
    if (ui.dragging === null) return;
    const f = ev.type === 'pointerup' ? fractionAt(ev) : ui.dragging;
    ui.dragging = null;
    seek(ui, kAtFraction(f, firstK(ui.state), lastK(ui.state)));
  };
  track.addEventListener('pointerup', endDrag);
  track.addEventListener('pointercancel', endDrag);
  track.addEventListener('keydown', (ev) => {
    const { state } = ui;
    const step = state.info ? Math.round(1 / state.info.framePeriodS) : 0;   // a second
    const k = state.k ?? firstK(state);
    const to = { ArrowLeft: k - step, ArrowRight: k + step, Home: firstK(state), End: lastK(state),
      PageDown: k - 10 * step, PageUp: k + 10 * step }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    ev.stopPropagation();
    seek(ui, to);
  });
}

function bindSpaceBar(ui) {
  ui.doc.addEventListener('keydown', (ev) => {
    if (ev.code !== 'Space' || ev.repeat || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    // a focused button or field takes its own space bar
    if (ev.target.closest?.('button, select, input, textarea, [contenteditable="true"]')) return;
    if (!ui.state.ready) return;
    ev.preventDefault();
    ui.send(playCommand(ui.state));
  });
}

// ---- messages ----
function apply(ui, msg) {
  const before = ui.state;
  ui.state = replayReduce(ui.state, msg);
  const { state } = ui;
  if (msg.type === 'hello') {
    onHello(ui);
  } else if (msg.type === 'replay_progress') {
    ui.prepBar.value = msg.of > 0 ? msg.done / msg.of : 0;
    setText(ui.prepText, progressWords(state.progress));
    ui.loading.style.width = `${(100 * (msg.of > 0 ? Math.min(1, msg.done / msg.of) : 0)).toFixed(1)}%`;
  } else if (msg.type === 'replay_timeline') {
    onTimeline(ui);
  } else if (msg.type === 'replay_state' && before.speed !== state.speed) {
    ui.speed.value = String(state.speed);
  } else if (msg.type === 'take_over') {
    ui.note('replay: taking over');
    ui.go(takeoverPageUrl(msg.ticket));
  } else if (msg.type === 'error') {
    if (ui.takingOver) {
      ui.takingOver = false;
      setText(ui.takeOver, 'Take over from here');
    }
    showError(ui, `Server: ${state.error}`);
  }
  controls(ui);
  position(ui);
}

function onHello(ui) {
  setText(ui.banner, replayBanner(ui.state.info, ui.state.session));
  fillSpeeds(ui, ui.state.info?.speeds);
  ui.prep.hidden = false;
  ui.prepBar.removeAttribute('value');
  setText(ui.prepText, progressWords(null));
  ui.takingOver = false;
  setText(ui.takeOver, 'Take over from here');
}

// the replay is ready: the timeline, the plots, and the moment the page was asked to open at
function onTimeline(ui) {
  ui.prep.hidden = true;
  ui.loading.style.width = '0';
  drawTimeline(ui);
  drawPlots(ui);
  ui.note(`replay: ready, ${ui.state.events.length} events`);
  if (!ui.fromSent && ui.request.from !== null) {
    ui.fromSent = true;
    seek(ui, ui.request.from);
  }
}

// The trainee's "Replay my run" (the end-of-task report): asks this live session for a
// replay ticket and opens the replay in a new tab. The tab is opened at the click, while
// the browser still counts it as the user's, and sent to the replay when the answer comes.
export function createReplayTicket({ send, win = window }) {
  let pending = null;   // {tab, show} while the server's answer is awaited
  return {
    request(show) {
      if (pending) return;
      if (!send(replayTicketMessage())) return show('Not connected: no replay now.', { level: 'error' });
      const tab = win.open('', '_blank');
      try { tab?.document.write('<title>clamsim replay</title><p style="font: 16px system-ui">Preparing the replay…</p>'); } catch { /* not ours to write */ }
      pending = { tab, show };
      show('Asking the server for your replay…');
    },
    // the server's replay_ticket, as protocol.js checked it
    message(m) {
      if (!pending) return;
      const { tab, show } = pending;
      pending = null;
      const url = new URL(replayPageUrl(m.recording, { ticket: m.ticket }), win.location.href).toString();
      if (tab && !tab.closed) tab.location.href = url;
      else win.open(url, '_blank');
      show('The replay opens in a new tab.', { href: url });
      return true;
    },
    error(m) {
      if (!pending) return;
      const { tab, show } = pending;
      pending = null;
      tab?.close();
      show(`No replay: ${m.message || m.code}`, { level: 'error' });
    },
  };
}
