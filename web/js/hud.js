// Heads-up display: the load moment gauge, Table 4.1's eight values with units, tensions,
// the clam's states, connection, frame rates, latency and what the controls send. Builds
// its rows once and then only changes text.

import { SIGNALS, VOLT_LIMIT } from './protocol.js';
import { el, setText } from './dom.js';
import { plainTerm } from './terms.js';
import { loadMomentView } from './load-moment.js';

// Table 4.1's rows: the HUD's id, the server's field (hello.display_fields: its unit is the
// name's last word), the label, the digits shown.
const TABLE_4_1 = [
  ['swing', 'swing_deg', 'Swing angle', 1],
  ['boom', 'boom_deg', 'Boom angle', 1],
  ['telescope', 'telescope_m', 'Telescope length', 2],
  ['clam_tip', 'clam_to_tip_m', 'Clam to arm tip', 2],
  ['opening', 'opening_deg', 'Clam opening', 1],
  ['cable1', 'cable1_m', 'Cable 1 length', 2],
  ['cable2', 'cable2_m', 'Cable 2 length', 2],
  ['load', 'load_kg', 'Load', 0],
];
const unitOf = (field) => field.slice(field.lastIndexOf('_') + 1);

// Below this height the full HUD does not fit beside the view (css/style.css compacts it too).
const SHORT_SCREEN = '(max-height: 720px)';

const SIGNAL_LABELS = { swing: 'Swing', boom: 'Boom', telescope: 'Telescope', cable1: 'Cable 1', cable2: 'Cable 2' };

function fmt(v, digits) {
  return typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits) : '–';
}

// An angle as a person reads it, in (-180, 180]: the server's swing counts whole turns
// (360.0 is where 0 is), and a trainee asks "how far left or right of straight ahead".
// Rounded first, so -179.96 reads 180.0, not -180.0.
export function formatAngle(deg, digits = 1) {
  if (typeof deg !== 'number' || !Number.isFinite(deg)) return '–';
  const q = 10 ** digits;
  let a = Math.round(deg * q) / q;
  a = ((a % 360) + 360) % 360;            // [0, 360)
  if (a > 180) a -= 360;                  // (-180, 180]
  return (Object.is(a, -0) ? 0 : a).toFixed(digits).replace(/^-(0\.?0*)$/, '$1');
}

// The load moment gauge: "Load moment 72 %", a bar coloured by the server's levels with a
// mark at each, and "1.3 t of 3.0 t at 12.4 m" under it (load-moment.js says what).
function loadMomentGauge() {
  const pct = el('span', { class: 'lmi-pct', id: 'hud-lmi-pct' }, '–');
  const fill = el('div', { class: 'lmi-fill' });
  const warnMark = el('div', { class: 'lmi-mark', 'data-mark': 'warning', title: 'warning level' });
  const cutMark = el('div', { class: 'lmi-mark', 'data-mark': 'cutout', title: 'cut-out level' });
  const bar = el('div', { class: 'lmi-bar', role: 'meter', 'aria-label': 'Load moment, % of the rated load', 'aria-valuemin': '0' },
    fill, warnMark, cutMark);
  const detail = el('div', { class: 'lmi-detail', id: 'hud-lmi-detail' });
  const box = el('section', { class: 'hud-lmi', id: 'hud-lmi', hidden: '',
    title: 'Load moment: the load on the ropes against the crane\'s rated load at this radius and boom length' },
  el('div', { class: 'lmi-head' }, el('span', { class: 'lmi-label' }, 'Load moment'), pct), bar, detail);
  let levels = null;
  const place = (mark, at) => {
    mark.hidden = at === null;
    if (at !== null) mark.style.left = `${(at * 100).toFixed(1)}%`;
  };
  return {
    box,
    // hello.machine.load_moment (null: a server without the indicator)
    levels(l) { levels = l; },
    show(frame) {
      const v = loadMomentView(frame, levels);
      box.hidden = !v.visible;
      if (!v.visible) return;
      box.dataset.level = v.level;
      setText(pct, v.pctText);
      setText(detail, v.text);
      fill.style.width = `${(v.fraction * 100).toFixed(1)}%`;
      place(warnMark, v.warningAt);
      place(cutMark, v.cutoutAt);
      bar.setAttribute('aria-valuenow', String(Math.round(frame.load_moment_pct)));
    },
  };
}

// gaugeParent: where the load moment gauge goes (the trainee's page puts it on the stage,
// beside the view, so the HUD's column keeps its height); the HUD itself without one.
// Its cells live in one object (hud) that the functions below share.
export function createHud(container, banner, gaugeParent = null) {
  const hud = { cells: {}, plain: {}, bars: {}, gauge: loadMomentGauge(), linkSummary: null };
  const display = el('table', { class: 'hud-table' },
    el('caption', {}, 'Display data (Table 4.1)'),
    ...TABLE_4_1.map(([id, field, label]) => hudRow(hud, id, label, unitOf(field))));
  const machine = machineTable(hud);
  const link = linkDetails(hud);
  const controls = controlsTable(hud);
  const { cells, gauge } = hud;
  cells.source = el('div', { class: 'hud-source', id: 'hud-source' }, '–');
  if (gaugeParent) {
    gaugeParent.replaceChildren(gauge.box);
    container.replaceChildren(display, machine, controls, cells.source, link);
  } else {
    container.replaceChildren(gauge.box, display, machine, controls, cells.source, link);
  }
  return {
    loadMomentLevels(levels) {
      gauge.levels(levels);
    },
    frame: (f) => showFrame(hud, f),
    // inputMs: the latency probe's median, a control change to its frame on the screen
    link: (l) => showLink(hud, l),
    note(text) {
      setCell(hud, 'note', text);
    },
    connection(text, level) {
      setCell(hud, 'connection', text);
      cells.connection.dataset.level = level;
      document.body.dataset.connection = level;
    },
    banner(text) {
      banner.textContent = text;
      banner.hidden = !text;
    },
    controls: (volts, source, level) => showControls(hud, volts, source, level),
  };
}

function hudRow(hud, id, label, unit) {
  const value = el('td', { class: 'num', id: `hud-${id}` }, '–');
  hud.cells[id] = value;
  return el('tr', {}, el('th', {}, label), value, el('td', { class: 'unit' }, unit));
}

// a thesis term (Table 2.4) and, under it, the same in plain words (terms.js)
function termRows(hud, id, label) {
  const value = el('td', { class: 'term', id: `hud-${id}`, colspan: '2' }, '–');
  hud.cells[id] = value;
  hud.plain[id] = el('td', { class: 'plain', id: `hud-${id}-plain`, colspan: '3' });
  return [el('tr', {}, el('th', {}, label), value), el('tr', { class: 'hud-plain' }, hud.plain[id])];
}

function setCell(hud, id, text) {
  const c = hud.cells[id];
  if (c && c.textContent !== text) c.textContent = text;
}

function showTerm(hud, id, kind, term) {
  const t = plainTerm(kind, term);
  setCell(hud, id, t.term);
  const plain = hud.plain[id];
  if (plain.textContent !== t.plain) {
    plain.textContent = t.plain;
    plain.title = t.tip;
    hud.cells[id].title = t.tip;
  }
}

function machineTable(hud) {
  const row = (id, label, unit) => hudRow(hud, id, label, unit);
  return el('table', { class: 'hud-table' },
    el('caption', {}, 'Cables and clam'),
    row('tension1', 'Cable 1 tension', 'kN'), row('tension2', 'Cable 2 tension', 'kN'),
    row('slack1', 'Cable 1 slack', 'm'), row('slack2', 'Cable 2 slack', 'm'),
    ...termRows(hud, 'working', 'Working state'), ...termRows(hud, 'geo', 'Geo status'),
    ...termRows(hud, 'loadstate', 'Load status'), row('swingclam', 'Clam swing', 'deg'),
    row('contact', 'Clam contact', 'kN'), row('submerged', 'Clam submerged', '%'),
    row('time', 'Simulation time', 's'));
}

// the link: open on a tall screen; on a short one (the HUD would not fit) a one-line
// summary that opens on a click, so no section is ever cut off below the screen
function linkDetails(hud) {
  const row = (id, label, unit) => hudRow(hud, id, label, unit);
  hud.linkSummary = el('span', { class: 'hud-link-summary', id: 'hud-link-summary' });
  const link = el('details', { class: 'hud-link', id: 'hud-link' },
    el('summary', {}, el('span', { class: 'hud-caption' }, 'Link'), hud.linkSummary),
    el('table', { class: 'hud-table' },
      row('connection', 'Server', ''), row('session', 'Session', ''),
      row('frames', 'Frames', ''), row('dropped', 'Dropped', ''),
      row('rate', 'Server frames', 'Hz'), row('fps', 'Render rate', 'fps'),
      row('latency', 'Round trip', 'ms'),
      row('input', 'Control to screen (median)', 'ms'), row('note', 'Last message', '')));
  link.open = !globalThis.matchMedia?.(SHORT_SCREEN).matches;
  return link;
}

function controlsTable(hud) {
  return el('table', { class: 'hud-table hud-controls' },
    el('caption', {}, 'Controls sent (V)'),
    ...SIGNALS.map((s) => {
      const fill = el('div', { class: 'bar-fill' });
      const value = el('td', { class: 'num', id: `hud-volts-${s}` }, '0.0');
      hud.bars[s] = { fill, value };
      return el('tr', {}, el('th', {}, SIGNAL_LABELS[s]), el('td', { class: 'bar-cell' }, el('div', { class: 'bar' }, fill)), value);
    }));
}

// the slack rows show each rope's loop as the server measures it (display.flags.slack_m)
function showFrame(hud, f) {
  const set = (id, text) => setCell(hud, id, text);
  hud.gauge.show(f);
  const v = f.values ?? {};
  TABLE_4_1.forEach(([id, field, , digits]) => set(id, id === 'swing' ? formatAngle(v[field], digits) : fmt(v[field], digits)));
  const slack = f.flags?.slack_m;
  set('tension1', fmt(f.tension_N?.[0] / 1000, 2));
  set('tension2', fmt(f.tension_N?.[1] / 1000, 2));
  set('slack1', fmt(slack?.[0], 2));
  set('slack2', fmt(slack?.[1], 2));
  showTerm(hud, 'working', 'working', f.working);
  showTerm(hud, 'geo', 'geo', f.geo);
  showTerm(hud, 'loadstate', 'load', f.load);
  // along the boom / across it, from the vertical
  set('swingclam', f.clam_swing_deg ? `${fmt(f.clam_swing_deg[0], 1)} / ${fmt(f.clam_swing_deg[1], 1)}` : '–');
  set('contact', fmt(f.clam_contact_force_N / 1000, 1));
  set('submerged', fmt(f.clam_submerged * 100, 0));
  set('time', fmt(f.t, 2));
}

function showLink(hud, { frames, dropped, rateHz, fps, latencyMs, session, inputMs = NaN }) {
  const set = (id, text) => setCell(hud, id, text);
  set('frames', String(frames));
  set('dropped', String(dropped));
  set('rate', fmt(rateHz, 1));
  set('fps', fmt(fps, 0));
  set('latency', fmt(latencyMs, 1));
  set('input', fmt(inputMs, 0));
  set('session', session ?? '–');
  const input = Number.isFinite(inputMs) ? ` · input ${fmt(inputMs, 0)} ms` : '';
  const summary = `${hud.cells.connection.textContent} · ${fmt(rateHz, 0)} Hz · ${fmt(latencyMs, 0)} ms${input}`;
  if (hud.linkSummary.textContent !== summary) hud.linkSummary.textContent = summary;
}

function showControls(hud, volts, source, level) {
  const { bars, cells } = hud;
  SIGNALS.forEach((s, i) => {
    const v = volts[i];
    const pct = Math.min(100, (Math.abs(v) / VOLT_LIMIT) * 50);
    bars[s].fill.style.width = `${pct}%`;
    bars[s].fill.style.left = v >= 0 ? '50%' : `${50 - pct}%`;
    const t = v.toFixed(1);
    if (bars[s].value.textContent !== t) bars[s].value.textContent = t;
  });
  if (cells.source.textContent !== source) cells.source.textContent = source;
  cells.source.dataset.level = level;
}
