// Joystick mapping: which axis or button of which device drives each of the five signals,
// with invert and deadzone, scaled to -5..+5 V; kept in localStorage per device id.
// Pure functions over plain objects (a Gamepad is only read through .id, .axes, .buttons),
// so the node tests use them as the browser does.

import { SIGNALS, VOLT_LIMIT } from './protocol.js';

export const STORAGE_PREFIX = 'clamsim.mapping.v1:';
export const DEFAULT_DEADZONE = 0.05;  // as config/joystick-default.json
export const ACTIONS = ['nextView', 'restart'];
export const ACTION_LABELS = Object.freeze({
  nextView: ['Next view', 'cycles the five views'],
  restart: ['Restart task', 'starts the training task again (press twice while it runs)'],
});

// The real machine (thesis 3.3): one 3-axis stick for swing, boom and telescope, two
// single-axis handles for cable 1 and cable 2. Stick right gives negative volts (clockwise
// swing seen from above) so the crane turns the way the stick leans; stick forward (axis
// -1) lowers the boom, as on excavator and crane levers. Button 1 cycles the views,
// button 9 restarts the training task.
export const DEFAULT_LAYOUT = Object.freeze({
  signals: {
    swing: [{ kind: 'axis', index: 0, invert: true }],
    boom: [{ kind: 'axis', index: 1, invert: false }],
    telescope: [{ kind: 'axis', index: 2, invert: false }],
    cable1: [{ kind: 'axis', index: 3, invert: false }],
    cable2: [{ kind: 'axis', index: 4, invert: false }],
  },
  deadzone: { swing: DEFAULT_DEADZONE, boom: DEFAULT_DEADZONE, telescope: DEFAULT_DEADZONE,
    cable1: DEFAULT_DEADZONE, cable2: DEFAULT_DEADZONE },
  // button 9: free on 12-button sticks, Start on a standard-mapping gamepad
  actions: { nextView: { kind: 'button', index: 1 }, restart: { kind: 'button', index: 9 } },
});

// Removes |x| <= dz and rescales the rest so that full deflection still gives 1.
export function applyDeadzone(x, dz) {
  const d = Math.min(Math.max(Number(dz) || 0, 0), 0.95);
  const a = Math.abs(x);
  if (!(a > d)) return 0;
  return Math.sign(x) * Math.min(1, (a - d) / (1 - d));
}

export function toVolts(x) {
  const c = Math.max(-1, Math.min(1, Number(x) || 0));
  return c * VOLT_LIMIT;
}

// Raw value of one input of one gamepad: axes -1..1, buttons 0..1; 0 when absent.
export function rawInput(pad, kind, index) {
  if (!pad) return 0;
  if (kind === 'axis') {
    const v = pad.axes?.[index];
    return typeof v === 'number' && Number.isFinite(v) ? v : 0;
  }
  if (kind === 'button') {
    const b = pad.buttons?.[index];
    if (b === undefined || b === null) return 0;
    if (typeof b === 'number') return b;
    return typeof b.value === 'number' ? b.value : (b.pressed ? 1 : 0);
  }
  return 0;
}

export function bindingValue(binding, pad) {
  const v = rawInput(pad, binding.kind, binding.index);
  return binding.invert ? -v : v;
}

// A device key that survives reconnects: the Gamepad id, with "#2", "#3" for identical
// devices plugged in at once (in index order).
export function deviceKeys(pads) {
  const seen = new Map();
  return pads.map((p) => {
    if (!p) return null;
    const n = (seen.get(p.id) ?? 0) + 1;
    seen.set(p.id, n);
    return n === 1 ? p.id : `${p.id} #${n}`;
  });
}

function cleanBinding(b) {
  if (!b || (b.kind !== 'axis' && b.kind !== 'button')) return null;
  const index = Number(b.index);
  if (!Number.isInteger(index) || index < 0 || index > 63) return null;
  return { kind: b.kind, index, invert: Boolean(b.invert) };
}

// Keeps only what this version understands; anything else is dropped, never thrown.
export function sanitizeMapping(m) {
  const out = { signals: {}, deadzone: {}, actions: {} };
  if (!m || typeof m !== 'object') return out;
  for (const s of SIGNALS) {
    const list = Array.isArray(m.signals?.[s]) ? m.signals[s].map(cleanBinding).filter(Boolean) : [];
    if (list.length) out.signals[s] = list.slice(0, 2);
    const dz = Number(m.deadzone?.[s]);
    out.deadzone[s] = Number.isFinite(dz) && dz >= 0 && dz <= 0.95 ? dz : DEFAULT_DEADZONE;
  }
  for (const a of ACTIONS) {
    const b = cleanBinding(m.actions?.[a]);
    if (b) out.actions[a] = { kind: b.kind, index: b.index };
  }
  return out;
}

export function defaultMapping() {
  return sanitizeMapping(DEFAULT_LAYOUT);
}

export function emptyMapping() {
  return sanitizeMapping({});
}

export function storageKey(deviceKey) {
  return STORAGE_PREFIX + deviceKey;
}

export function loadDeviceMapping(storage, deviceKey) {
  let text;
  try {
    text = storage.getItem(storageKey(deviceKey));
  } catch {
    return null;
  }
  if (text === null || text === undefined) return null;
  try {
    return sanitizeMapping(JSON.parse(text));
  } catch {
    return null;
  }
}

export function saveDeviceMapping(storage, deviceKey, mapping) {
  try {
    storage.setItem(storageKey(deviceKey), JSON.stringify(sanitizeMapping(mapping)));
    return true;
  } catch {
    return false;  // storage full or blocked: the mapping still works for this page
  }
}

export function clearDeviceMapping(storage, deviceKey) {
  try {
    storage.removeItem(storageKey(deviceKey));
  } catch { /* nothing stored */ }
}

// For the connected pads (Gamepad-like, nulls allowed), the mapping each one uses: its
// stored one, or, when no connected device has a stored mapping, the default layout on
// the first device. Returns [{pad, key, mapping, stored}].
export function resolveMappings(storage, pads) {
  const keys = deviceKeys(pads);
  const out = [];
  pads.forEach((pad, i) => {
    if (!pad) return;
    const stored = loadDeviceMapping(storage, keys[i]);
    out.push({ pad, key: keys[i], mapping: stored ?? emptyMapping(), stored: stored !== null });
  });
  if (out.length && !out.some((d) => d.stored)) out[0].mapping = defaultMapping();
  return out;
}

// Per signal, the sum of its bindings on every device (deadzone, then clamp), in volts.
export function computeVolts(resolved) {
  return SIGNALS.map((s) => {
    let sum = 0;
    let bound = false;
    for (const { pad, mapping } of resolved) {
      const list = mapping.signals[s];
      if (!list) continue;
      for (const b of list) {
        bound = true;
        sum += applyDeadzone(bindingValue(b, pad), mapping.deadzone[s]);
      }
    }
    return bound ? toVolts(sum) : 0;
  });
}

// Which signals are driven by a connected device at all.
export function boundSignals(resolved) {
  return SIGNALS.filter((s) => resolved.some(({ mapping }) => mapping.signals[s]?.length));
}

// The devices driving the crane: those with at least one signal bound (a button box that
// only switches views is not). Haptic feedback goes to these.
export function drivingDevices(resolved) {
  return resolved.filter(({ mapping }) => SIGNALS.some((s) => mapping.signals[s]?.length));
}

// The pressed state of a mapped action (e.g. next view) on any device.
export function actionPressed(resolved, action) {
  return resolved.some(({ pad, mapping }) => {
    const b = mapping.actions[action];
    return b ? rawInput(pad, b.kind, b.index) > 0.5 : false;
  });
}

// Learn mode: the input that moved most since the snapshot, if it moved enough.
export function snapshotInputs(pad) {
  return { axes: Array.from(pad?.axes ?? [], Number), buttons: Array.from(pad?.buttons ?? [], (b) => rawInput({ buttons: [b] }, 'button', 0)) };
}

export function detectMovedInput(before, pad, threshold = 0.5) {
  const now = snapshotInputs(pad);
  let best = null;
  now.axes.forEach((v, index) => {
    const d = Math.abs(v - (before.axes[index] ?? 0));
    if (d >= threshold && (!best || d > best.delta)) best = { kind: 'axis', index, delta: d, invert: v - (before.axes[index] ?? 0) < 0 };
  });
  now.buttons.forEach((v, index) => {
    const d = Math.abs(v - (before.buttons[index] ?? 0));
    if (d >= threshold && (!best || d > best.delta)) best = { kind: 'button', index, delta: d, invert: false };
  });
  return best;
}

// Rising edge of an action, so a held button fires once.
export function makeEdgeDetector() {
  let last = false;
  return (pressed) => {
    const fire = pressed && !last;
    last = pressed;
    return fire;
  };
}

// The mapping screen edits one assignment across devices: per signal up to two bindings
// {device, kind, index, invert} and a deadzone; per action one binding.
export function assignmentFromResolved(resolved) {
  const a = { signals: {}, deadzone: {}, actions: {} };
  for (const s of SIGNALS) {
    a.signals[s] = [];
    a.deadzone[s] = DEFAULT_DEADZONE;
  }
  for (const { key, mapping } of resolved) {
    for (const s of SIGNALS) {
      const list = mapping.signals[s] ?? [];
      for (const b of list) a.signals[s].push({ device: key, ...b });
      if (list.length) a.deadzone[s] = mapping.deadzone[s];
    }
    for (const act of ACTIONS) {
      if (mapping.actions[act] && !a.actions[act]) a.actions[act] = { device: key, ...mapping.actions[act] };
    }
  }
  for (const s of SIGNALS) a.signals[s] = a.signals[s].slice(0, 2);
  return a;
}

// Splits an assignment back into one mapping per device (every listed device gets one,
// possibly empty, so that "nothing mapped here" is remembered too).
export function mappingsFromAssignment(assignment, keys) {
  const out = {};
  for (const key of keys) {
    const m = { signals: {}, deadzone: {}, actions: {} };
    for (const s of SIGNALS) {
      const mine = (assignment.signals[s] ?? []).filter((b) => b.device === key)
        .map(({ kind, index, invert }) => ({ kind, index, invert }));
      if (mine.length) m.signals[s] = mine;
      m.deadzone[s] = assignment.deadzone[s] ?? DEFAULT_DEADZONE;
    }
    for (const act of ACTIONS) {
      const b = assignment.actions[act];
      if (b && b.device === key) m.actions[act] = { kind: b.kind, index: b.index };
    }
    out[key] = sanitizeMapping(m);
  }
  return out;
}
