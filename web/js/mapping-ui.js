// The joystick mapping screen: any axis or button of any connected device for each signal,
// invert, deadzone, learn-by-moving, live values; every change is saved per device at once.

import { SIGNALS } from './protocol.js';
import {
  assignmentFromResolved, mappingsFromAssignment, saveDeviceMapping, clearDeviceMapping,
  deviceKeys, snapshotInputs, detectMovedInput, computeVolts, rawInput, DEFAULT_DEADZONE, ACTIONS, ACTION_LABELS,
} from './mapping.js';

const ROWS = [
  ['swing', 'Swing', '+ turns counter-clockwise (left)'],
  ['boom', 'Boom', '+ raises'],
  ['telescope', 'Telescope', '+ extends'],
  ['cable1', 'Cable 1 (main hoist)', '+ reels in'],
  ['cable2', 'Cable 2 (aux hoist)', '+ reels in'],
];

function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v === true) e.setAttribute(k, '');
    else if (v !== false && v !== undefined) e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

const encode = (b) => (b ? JSON.stringify([b.device, b.kind, b.index]) : '');

// rumble: {enabled() -> bool, setEnabled(on), test()} from main.js (haptics.js), or null.
// The screen's state lives in one object (m) that the functions below share.
export function createMappingScreen({ dialog, input, storage, rumble = null, onChange = () => {} }) {
  const m = {
    dialog, input, storage, rumble, onChange,
    assignment: null,
    learning: null,  // {signal, slot, snaps: Map(key -> inputs), button}
    liveCells: [],
    lastDeviceList: '',
  };
  dialog.addEventListener('close', () => { m.learning = null; });
  return {
    open() {
      render(m);
      if (!dialog.open) dialog.showModal();
    },
    close() { dialog.close(); },
    tick: () => tick(m),
    get isOpen() { return dialog.open; },
  };
}

function currentPads(m) {
  const pads = m.input.pads();
  const keys = deviceKeys(pads);
  return pads.map((pad, i) => ({ pad, key: keys[i] })).filter((d) => d.pad);
}

function save(m) {
  const devices = currentPads(m);
  const per = mappingsFromAssignment(m.assignment, devices.map((d) => d.key));
  for (const [key, mapping] of Object.entries(per)) saveDeviceMapping(m.storage, key, mapping);
  m.onChange();
}

function sourceSelect(devices, selected, onPick, allowAxes = true) {
  const sel = h('select', { onchange: () => onPick(sel.value ? JSON.parse(sel.value) : null) });
  sel.append(h('option', { value: '' }, '— none —'));
  for (const { pad, key } of devices) {
    const group = h('optgroup', { label: key });
    // "<gamepad index>: axis N", matching the device list above
    if (allowAxes) pad.axes.forEach((_, i) => group.append(h('option', { value: JSON.stringify([key, 'axis', i]) }, `${pad.index}: axis ${i}`)));
    pad.buttons.forEach((_, i) => group.append(h('option', { value: JSON.stringify([key, 'button', i]) }, `${pad.index}: button ${i}`)));
    sel.append(group);
  }
  const v = encode(selected);
  // a binding to a device that is not plugged in stays in storage; show it as such
  if (v && ![...sel.options].some((o) => o.value === v)) {
    sel.append(h('option', { value: v }, `${selected.device} ${selected.kind} ${selected.index} (not connected)`));
  }
  sel.value = v;
  return sel;
}

// The whole screen again, from the input's current bindings.
function render(m) {
  const devices = currentPads(m);
  m.lastDeviceList = devices.map((d) => d.key).join('\n');
  m.assignment = assignmentFromResolved(m.input.resolved());
  m.liveCells = [];
  const body = m.dialog.querySelector('.mapping-body');
  const rows = ROWS.map(([signal, label, hint]) => signalRow(m, devices, signal, label, hint));
  const actionRows = ACTIONS.map((action) => actionRow(m, devices, action));
  const table = h('table', { class: 'mapping-table' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Signal'), h('th', {}, 'Source (two are added)'), h('th', {}, 'Deadzone'), h('th', {}, 'Output'))),
    h('tbody', {}, ...rows, ...actionRows));
  const reset = h('button', { type: 'button', onclick: () => {
    for (const { key } of devices) clearDeviceMapping(m.storage, key);
    m.onChange();
    render(m);
  } }, 'Reset to the default layout');
  body.replaceChildren(h('section', { class: 'devices' }, h('h3', {}, 'Connected devices'), ...deviceList(devices)),
    table, ...rumbleRow(m), h('p', {}, reset, ' ', h('span', { class: 'hint' }, 'Saved in this browser for each device.')));
}

// a signal's row: its two sources (each with invert and learn), its deadzone, its output
function signalRow(m, devices, signal, label, hint) {
  const slots = [0, 1].map((slot) => slotCell(m, devices, signal, slot));
  const dz = h('input', { type: 'number', min: '0', max: '0.9', step: '0.01',
    value: String(m.assignment.deadzone[signal] ?? DEFAULT_DEADZONE),
    onchange: () => { m.assignment.deadzone[signal] = Math.min(0.9, Math.max(0, Number(dz.value) || 0)); save(m); } });
  const live = h('td', { class: 'num live' }, '0.0 V');
  m.liveCells.push([signal, live]);
  return h('tr', {}, h('th', {}, label, h('div', { class: 'hint' }, hint)), h('td', {}, ...slots),
    h('td', {}, dz), live);
}

function slotCell(m, devices, signal, slot) {
  const b = m.assignment.signals[signal][slot];
  const pick = (v) => {
    const list = m.assignment.signals[signal];
    if (v) {
      const picked = { device: v[0], kind: v[1], index: v[2], invert: list[slot]?.invert ?? false };
      if (slot < list.length) list[slot] = picked;
      else list.push(picked);
    } else {
      list.splice(slot, 1);
    }
    save(m);
    render(m);
  };
  const inv = h('input', { type: 'checkbox', title: 'invert', checked: Boolean(b?.invert), disabled: !b,
    onchange: () => { m.assignment.signals[signal][slot].invert = inv.checked; save(m); } });
  const learn = h('button', { type: 'button', class: 'learn', onclick: () => startLearn(m, signal, slot, learn) }, 'learn');
  return h('div', { class: 'slot' }, sourceSelect(devices, b, pick), h('label', {}, inv, ' invert'), learn);
}

// an action (a button's job): one source, buttons only
function actionRow(m, devices, action) {
  const [label, hint] = ACTION_LABELS[action] ?? [action, ''];
  return h('tr', { 'data-action': action }, h('th', {}, label, h('div', { class: 'hint' }, hint)),
    h('td', {}, sourceSelect(devices, m.assignment.actions[action], (v) => {
      if (v) m.assignment.actions[action] = { device: v[0], kind: v[1], index: v[2] };
      else delete m.assignment.actions[action];
      save(m);
    }, false)), h('td'), h('td'));
}

// each device with a bar per axis and a box per button, which tick() moves
function deviceList(devices) {
  if (!devices.length) {
    return [h('p', { class: 'hint' }, 'No joystick seen yet. Plug one in and press any of its buttons (browsers reveal a gamepad only after an input).')];
  }
  return devices.map(({ pad, key }) => h('div', { class: 'device' },
    h('div', { class: 'device-name' }, `${pad.index}: ${key}${pad.mapping ? ` (${pad.mapping} mapping)` : ''}`),
    h('div', { class: 'axes' }, ...pad.axes.map((_, i) => h('span', { class: 'axis', 'data-key': key, 'data-axis': i },
      h('span', { class: 'axis-label' }, `a${i}`), h('span', { class: 'axis-bar' }, h('span', { class: 'axis-fill' }))))),
    h('div', { class: 'buttons' }, ...pad.buttons.map((_, i) => h('span', { class: 'btn', 'data-key': key, 'data-button': i }, String(i))))));
}

// haptic feedback: on/off (saved in this browser), which devices will feel it, a try button
function rumbleRow(m) {
  const { rumble } = m;
  if (!rumble) return [];
  const driving = m.input.driving();
  const able = driving.filter((d) => d.canRumble).map((d) => d.key);
  let status = 'No joystick drives the crane.';
  if (able.length) status = `Felt on ${able.join(', ')}.`;
  else if (driving.length) status = 'The joystick driving the crane reports no rumble motor to this browser.';
  const box = h('input', { type: 'checkbox', id: 'rumble-enabled', checked: rumble.enabled(),
    onchange: () => rumble.setEnabled(box.checked) });
  const test = h('button', { type: 'button', id: 'rumble-test', disabled: !able.length, onclick: () => rumble.test() }, 'Try');
  return [h('p', { class: 'rumble' }, h('label', {}, box, ' Rumble the joystick on hits, overloads, slack ropes and grips'),
    ' ', test, ' ', h('span', { class: 'hint' }, status))];
}

function startLearn(m, signal, slot, button) {
  const snaps = new Map(currentPads(m).map(({ pad, key }) => [key, snapshotInputs(pad)]));
  m.learning = { signal, slot, snaps, button };
  button.textContent = 'move it…';
  button.classList.add('active');
}

// Called every animation frame while the screen is open.
function tick(m) {
  if (!m.dialog.open) return;
  const devices = currentPads(m);
  if (devices.map((d) => d.key).join('\n') !== m.lastDeviceList) {
    m.learning = null;
    render(m);
    return;
  }
  for (const { pad, key } of devices) {
    showDevice(m.dialog, pad, key);
    if (m.learning && learnFrom(m, pad, key)) return;
  }
  const volts = computeVolts(m.input.resolved());
  for (const [s, cell] of m.liveCells) {
    const t = `${volts[SIGNALS.indexOf(s)].toFixed(2)} V`;
    if (cell.textContent !== t) cell.textContent = t;
  }
}

// a device's axes and buttons as they are now
function showDevice(dialog, pad, key) {
  dialog.querySelectorAll(`.axis[data-key="${CSS.escape(key)}"]`).forEach((e) => {
    const v = rawInput(pad, 'axis', Number(e.dataset.axis));
    const fill = e.querySelector('.axis-fill');
    fill.style.left = `${50 + Math.min(0, v) * 50}%`;
    fill.style.width = `${Math.abs(v) * 50}%`;
    e.title = v.toFixed(3);
  });
  dialog.querySelectorAll(`.btn[data-key="${CSS.escape(key)}"]`).forEach((e) => {
    e.classList.toggle('pressed', rawInput(pad, 'button', Number(e.dataset.button)) > 0.5);
  });
}

// learning: the first input of this device that moved since learn was pressed becomes the
// slot's source; returns whether one did (the screen is drawn again)
function learnFrom(m, pad, key) {
  const { learning } = m;
  const moved = detectMovedInput(learning.snaps.get(key) ?? { axes: [], buttons: [] }, pad);
  if (!moved) return false;
  const list = m.assignment.signals[learning.signal];
  const b = { device: key, kind: moved.kind, index: moved.index, invert: moved.invert };
  if (learning.slot < list.length) list[learning.slot] = b;
  else list.push(b);
  m.learning = null;
  save(m);
  render(m);
  return true;
}
