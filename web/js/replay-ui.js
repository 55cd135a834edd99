// The replay page's own parts (docs/web-client.md "Debrief replay"): the banner,
// the preparation's progress, the bottom bar (play, speed, the timeline with its event
// markers, take over), the list of events and the plots beside the view (uPlot, loaded only
// here). replay.js holds the rules and the words; main.js draws the frames as live.

import { el, setText } from './dom.js';
import {
  replayReduce, initialReplay, replayBanner, progressWords,
  speedChoices, timelineMarkers, eventWords, eventKind, firstK, lastK, fractionOfK, kAtFraction,
  timeOfK, kAtTime, formatReplayTime, plotData, playCommand, speedMessage, seekMessage, takeOverMessage,
  takeoverPageUrl, replayPageUrl, replayTicketMessage,
} from './replay.js';

const UPLOT_CSS = '/vendor/uplot/uPlot.min.css';

export function createReplayUi({ doc = document, request, send, go, note = () => {} }) {
  let state = initialReplay();
  let fromSent = false;
  let dragging = null;     // the fraction under the pointer while the playhead is dragged
  let takingOver = false;

  doc.body.dataset.replay = 'true';
  const banner = doc.getElementById('replay-banner');
  const prep = doc.getElementById('replay-prep');
  const side = doc.getElementById('replay-side');
  const bar = doc.getElementById('replay-bar');
  banner.hidden = false;
  side.hidden = false;
  bar.hidden = false;
  setText(banner, 'Replay: connecting…');

  // ---- preparation ----
  const prepText = el('p', { id: 'replay-prep-text' }, 'Waiting for the server…');
  const prepBar = el('progress', { id: 'replay-progress', max: '1' });
  prep.replaceChildren(el('h2', {}, 'Preparing the replay'), prepBar, prepText,
    el('p', { class: 'hint' }, 'The server re-simulates the whole run once, from the recorded controls.'));
  prep.hidden = false;

  // ---- bottom bar ----
  const play = el('button', { type: 'button', id: 'replay-play', class: 'primary', title: 'Play or pause (space bar)', disabled: '' }, '▶ Play');
  const speed = el('select', { id: 'replay-speed', 'aria-label': 'Replay speed', title: 'Replay speed' });
  const clock = el('span', { id: 'replay-time', class: 'replay-time' }, '–');
  const fill = el('div', { class: 'replay-fill' });
  const head = el('div', { class: 'replay-head' });
  const marks = el('div', { class: 'replay-marks' });
  const loading = el('div', { class: 'replay-loading' });
  const track = el('div', { class: 'replay-track', id: 'replay-track', role: 'slider', tabindex: '0',
    'aria-label': 'Replay position', 'aria-valuemin': '0', 'aria-valuemax': '0', 'aria-valuenow': '0' },
  loading, fill, head);
  const takeOver = el('button', { type: 'button', id: 'replay-takeover', disabled: '',
    title: 'Start a live session from this moment: the machine as it is now, and you at the controls' }, 'Take over from here');
  const message = el('span', { id: 'replay-message', class: 'replay-message', role: 'alert', hidden: '' });
  // the event markers (buttons) lie over the slider, beside it in the tree: a control inside a
  // slider is one no screen reader can reach
  bar.replaceChildren(play, speed, clock, el('div', { class: 'replay-timeline' }, el('div', { class: 'replay-rail' }, track, marks)),
    takeOver, message);
  function fillSpeeds(list) {
    speed.replaceChildren(...speedChoices(list).map((c) => el('option', { value: String(c.value) }, c.label)));
    speed.value = String(state.speed);
  }
  fillSpeeds(undefined);

  // ---- beside the view: plots and events ----
  const tensionBox = el('div', { class: 'replay-plot', id: 'replay-plot-tension' });
  const speedsBox = el('div', { class: 'replay-plot', id: 'replay-plot-speeds' });
  const plotNote = el('p', { class: 'hint', id: 'replay-plot-note' }, 'Plots appear once the replay is ready.');
  const eventList = el('ol', { class: 'replay-events', id: 'replay-events' });
  side.replaceChildren(el('h3', {}, 'Rope tensions (kN)'), tensionBox, el('h3', {}, 'Joint speeds'), speedsBox, plotNote,
    el('h3', {}, 'Events ', el('span', { class: 'hint' }, '(click to go there)')), eventList);

  const plots = [];   // {u, cursor} for each uPlot
  // the two plots share what the events list leaves of the column's height
  const plotSize = () => ({ width: Math.max(200, side.clientWidth - 16),
    height: Math.max(100, Math.min(240, Math.floor((side.clientHeight - 300) / 2))) });
  let uplotModule = null;

  function showError(text) {
    message.hidden = !text;
    setText(message, text ?? '');
  }

  function seek(k) {
    if (!state.ready) return;
    const first = firstK(state), last = lastK(state);
    k = Math.min(last, Math.max(first, Math.round(k)));
    send(seekMessage(k));
    // show where it goes at once; the frame and replay_state follow
    state = { ...state, k };
    position();
  }

  // ---- drawing the state ----
  function position() {
    const first = firstK(state), last = lastK(state);
    const k = dragging !== null ? kAtFraction(dragging, first, last) : state.k ?? first;
    const f = fractionOfK(k, first, last);
    const pct = `${(f * 100).toFixed(2)}%`;
    fill.style.width = pct;
    head.style.left = pct;
    const period = state.info?.framePeriodS ?? 0.05;
    const t = timeOfK(k, state.series, period);
    const total = timeOfK(last, state.series, period);
    setText(clock, `${formatReplayTime(t)} / ${formatReplayTime(total)}`);
    track.setAttribute('aria-valuenow', String(k));
    track.setAttribute('aria-valuetext', formatReplayTime(t));
    for (const p of plots) moveCursor(p, t);
  }

  function controls() {
    setText(play, state.playing ? '❚❚ Pause' : '▶ Play');
    play.setAttribute('aria-pressed', String(state.playing));
    play.disabled = !state.ready;
    takeOver.disabled = !state.ready || takingOver;
    speed.disabled = !state.ready;
    if (doc.activeElement !== speed) speed.value = String(state.speed);
    track.setAttribute('aria-valuemin', String(firstK(state)));
    track.setAttribute('aria-valuemax', String(lastK(state)));
    track.dataset.ready = String(state.ready);
  }

  function drawTimeline() {
    const first = firstK(state), last = lastK(state);
    const period = state.info?.framePeriodS ?? 0.05;
    const markers = timelineMarkers(state.events, { first, last, series: state.series, framePeriodS: period,
      width: Math.max(200, track.clientWidth || 1000), loads: state.loads });
    // styles through the CSSOM: the server's Content-Security-Policy refuses style attributes
    marks.replaceChildren(...markers.map((m) => {
      const b = el('button', { type: 'button', class: 'replay-mark', 'data-kind': m.kind,
        'data-k': String(m.k), 'data-tall': String(m.tall), title: m.title, 'aria-label': m.title }, m.icon);
      b.style.left = `${(m.at * 100).toFixed(2)}%`;
      b.style.setProperty('--mark', m.colour);
      return b;
    }));
    eventList.replaceChildren(...state.events.map((e) => {
      const w = eventWords(e, state.series, period, state.loads);
      const kind = eventKind(e.kind);
      const b = el('button', { type: 'button', class: 'replay-event', 'data-kind': e.kind, 'data-k': String(e.k), title: w.title },
        el('span', { class: 'ev-icon', 'aria-hidden': 'true' }, kind.icon), el('span', { class: 'ev-time' }, w.time),
        el('span', { class: 'ev-text' }, w.text));
      b.style.setProperty('--mark', kind.colour);
      return el('li', {}, b);
    }));
    if (!state.events.length) eventList.append(el('li', { class: 'hint' }, 'No events in this run.'));
  }

  // ---- plots (uPlot) ----
  async function loadUplot() {
    if (uplotModule) return uplotModule;
    if (!doc.querySelector(`link[href="${UPLOT_CSS}"]`)) {
      doc.head.append(el('link', { rel: 'stylesheet', href: UPLOT_CSS }));
    }
    uplotModule = (await import('uplot')).default;
    return uplotModule;
  }

  function moveCursor(p, t) {
    if (p.t === t) return;
    p.t = t;
    const x = p.u.valToPos(t, 'x');
    p.cursor.style.transform = `translateX(${Math.round(x)}px)`;
    p.cursor.hidden = !(x >= 0 && x <= p.u.over.clientWidth + 1);
  }

  async function drawPlots() {
    const data = plotData(state.series);
    if (!data) {
      setText(plotNote, 'This recording has no series to plot.');
      return;
    }
    let UPlot;
    try {
      UPlot = await loadUplot();
    } catch (e) {
      setText(plotNote, `Plots unavailable: uPlot did not load (${e.message ?? e}).`);
      return;
    }
    for (const p of plots) p.u.destroy();
    plots.length = 0;
    const axis = { stroke: '#8a9aa8', grid: { stroke: '#2e3a45', width: 1 }, ticks: { stroke: '#2e3a45', width: 1 } };
    const xAxis = { ...axis, values: (u, vals) => vals.map((v) => formatReplayTime(v).replace(/\.\d$/, '')) };
    const common = { ...plotSize(), legend: { live: false }, cursor: { y: false, drag: { x: false, y: false } },
      scales: { x: { time: false } } };
    const tension = new UPlot({ ...common, series: [{ label: 't' },
      { label: 'rope 1', stroke: '#4aa3df', width: 1.5 }, { label: 'rope 2', stroke: '#e8b23a', width: 1.5 }],
    axes: [xAxis, { ...axis, size: 42 }] }, data.tension, tensionBox);
    const speeds = new UPlot({ ...common,
      scales: { x: { time: false }, deg: {}, m: {} },
      series: [{ label: 't' },
        { label: 'swing °/s', stroke: '#57c26f', width: 1.5, scale: 'deg' },
        { label: 'boom °/s', stroke: '#ef5b4c', width: 1.5, scale: 'deg' },
        { label: 'telescope m/s', stroke: '#c77dff', width: 1.5, scale: 'm' }],
      axes: [xAxis, { ...axis, scale: 'deg', size: 42 }, { ...axis, scale: 'm', side: 1, size: 40, grid: { show: false } }] },
    data.speeds, speedsBox);
    for (const u of [tension, speeds]) {
      const cursor = el('div', { class: 'replay-cursor' });
      u.over.append(cursor);
      // a click on a plot goes to that moment
      u.over.addEventListener('click', (ev) => {
        const rect = u.over.getBoundingClientRect();
        seek(kAtTime(u.posToVal(ev.clientX - rect.left, 'x'), state.series, state.info?.framePeriodS));
      });
      plots.push({ u, cursor, t: null });
    }
    plotNote.hidden = true;
    position();
  }

  function resizePlots() {
    const size = plotSize();
    for (const p of plots) {
      p.u.setSize(size);
      p.t = null;
    }
    position();
  }
  new ResizeObserver(resizePlots).observe(side);
  // the markers that share a place depend on the bar's width
  new ResizeObserver(() => { if (state.ready) drawTimeline(); }).observe(track);

  // ---- input ----
  play.addEventListener('click', () => send(playCommand(state)));
  speed.addEventListener('change', () => send(speedMessage(Number(speed.value))));
  takeOver.addEventListener('click', () => {
    takingOver = true;
    showError(null);
    setText(takeOver, 'Starting a live session…');
    send(takeOverMessage());
    controls();
  });
  const onSeekButton = (ev) => {
    const b = ev.target.closest('[data-k]');
    if (b) seek(Number(b.dataset.k));
  };
  marks.addEventListener('click', (ev) => {
    ev.stopPropagation();
    onSeekButton(ev);
  });
  marks.addEventListener('pointerdown', (ev) => ev.stopPropagation());
  eventList.addEventListener('click', onSeekButton);
  const fractionAt = (ev) => {
    const r = track.getBoundingClientRect();
    return r.width > 0 ? (ev.clientX - r.left) / r.width : 0;
  };
  track.addEventListener('pointerdown', (ev) => {
    if (!state.ready) return;
    track.setPointerCapture(ev.pointerId);
    dragging = fractionAt(ev);
    position();
  });
  track.addEventListener('pointermove', (ev) => {
    if (dragging === null) return;
    dragging = fractionAt(ev);
    position();
  });
  const endDrag = (ev) => {
    if (dragging === null) return;
    const f = ev.type === 'pointerup' ? fractionAt(ev) : dragging;
    dragging = null;
    seek(kAtFraction(f, firstK(state), lastK(state)));
  };
  track.addEventListener('pointerup', endDrag);
  track.addEventListener('pointercancel', endDrag);
  track.addEventListener('keydown', (ev) => {
    const step = Math.round(1 / (state.info?.framePeriodS ?? 0.05));   // a second
    const k = state.k ?? firstK(state);
    const to = { ArrowLeft: k - step, ArrowRight: k + step, Home: firstK(state), End: lastK(state),
      PageDown: k - 10 * step, PageUp: k + 10 * step }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    ev.stopPropagation();
    seek(to);
  });
  doc.addEventListener('keydown', (ev) => {
    if (ev.code !== 'Space' || ev.repeat || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    // a focused button or field takes its own space bar
    if (ev.target.closest?.('button, select, input, textarea, [contenteditable="true"]')) return;
    if (!state.ready) return;
    ev.preventDefault();
    send(playCommand(state));
  });

  // ---- messages ----
  function apply(msg) {
    const before = state;
    state = replayReduce(state, msg);
    if (msg.type === 'hello') {
      setText(banner, replayBanner(state.info, state.session));
      fillSpeeds(state.info?.speeds);
      prep.hidden = false;
      prepBar.removeAttribute('value');
      setText(prepText, progressWords(null));
      takingOver = false;
      setText(takeOver, 'Take over from here');
    } else if (msg.type === 'replay_progress') {
      prepBar.value = msg.of > 0 ? msg.done / msg.of : 0;
      setText(prepText, progressWords(state.progress));
      loading.style.width = `${(100 * (msg.of > 0 ? Math.min(1, msg.done / msg.of) : 0)).toFixed(1)}%`;
    } else if (msg.type === 'replay_timeline') {
      prep.hidden = true;
      loading.style.width = '0';
      drawTimeline();
      drawPlots();
      note(`replay: ready, ${state.events.length} events`);
      if (!fromSent && request.from !== null) {
        fromSent = true;
        seek(request.from);
      }
    } else if (msg.type === 'replay_state' && before.speed !== state.speed) {
      speed.value = String(state.speed);
    } else if (msg.type === 'take_over') {
      note('replay: taking over');
      go(takeoverPageUrl(msg.ticket));
    } else if (msg.type === 'error') {
      if (takingOver) {
        takingOver = false;
        setText(takeOver, 'Take over from here');
      }
      showError(`Server: ${state.error}`);
    }
    controls();
    position();
  }

  return {
    get state() { return state; },
    // a replay message, as protocol.js checked it
    message(m) { apply(m); },
    // the hello (parsed by protocol.js) with its raw `replay` object
    hello(msg, rawReplay) { apply({ type: 'hello', session: msg.session, replay: rawReplay, loads: msg.scene?.loads }); },
    frame(f) {
      if (dragging !== null) return;
      state = replayReduce(state, f);
      position();
    },
    error(m) { apply({ type: 'error', message: m.message, code: m.code }); },
    // the socket closed for good (a refusal): say why where the replay would be
    refused(why) {
      prep.hidden = false;
      prepBar.value = 0;
      setText(prepText, `No replay: ${why}`);
      setText(banner, `Replay not available: ${why}`);
    },
  };
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
