import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyDeadzone, toVolts, rawInput, bindingValue, deviceKeys, sanitizeMapping, defaultMapping,
  loadDeviceMapping, saveDeviceMapping, clearDeviceMapping, storageKey, resolveMappings,
  computeVolts, boundSignals, drivingDevices, actionPressed, snapshotInputs, detectMovedInput, makeEdgeDetector,
  assignmentFromResolved, mappingsFromAssignment, DEFAULT_DEADZONE,
} from '../js/mapping.js';

// localStorage's interface over a Map
function fakeStorage(initial = {}) {
  const m = new Map(Object.entries(initial));
  return {
    getItem: (k) => (m.has(k) ? m.get(k) : null),
    setItem: (k, v) => m.set(k, String(v)),
    removeItem: (k) => m.delete(k),
    keys: () => [...m.keys()],
    raw: m,
  };
}

function pad(id, axes = [0, 0, 0, 0, 0], buttons = [], index = 0) {
  return { id, index, axes, buttons: buttons.map((v) => ({ value: v, pressed: v > 0.5 })), mapping: '' };
}

const close = (a, b, eps = 1e-9) => assert.ok(Math.abs(a - b) < eps, `${a} != ${b}`);

test('deadzone removes small deflections and rescales the rest to full range', () => {
  assert.equal(applyDeadzone(0.05, 0.1), 0);
  assert.equal(applyDeadzone(-0.1, 0.1), 0);
  close(applyDeadzone(1, 0.1), 1);
  close(applyDeadzone(-1, 0.1), -1);
  close(applyDeadzone(0.55, 0.1), 0.5);
  close(applyDeadzone(-0.55, 0.1), -0.5);
  close(applyDeadzone(0.3, 0), 0.3);
  assert.equal(applyDeadzone(NaN, 0.1), 0);
  close(applyDeadzone(1.2, 0.1), 1);  // some drivers overshoot
});

test('scaling: -1..1 to -5..+5 V, clamped', () => {
  assert.equal(toVolts(1), 5);
  assert.equal(toVolts(-0.5), -2.5);
  assert.equal(toVolts(3), 5);
  assert.equal(toVolts(undefined), 0);
});

test('inputs: axes, buttons (object or number), invert, missing ones read 0', () => {
  const p = pad('stick', [0.25, -1], [0, 1]);
  assert.equal(rawInput(p, 'axis', 0), 0.25);
  assert.equal(rawInput(p, 'axis', 7), 0);
  assert.equal(rawInput(p, 'button', 1), 1);
  assert.equal(rawInput({ buttons: [0.5] }, 'button', 0), 0.5);
  assert.equal(rawInput({ buttons: [{ pressed: true }] }, 'button', 0), 1);
  assert.equal(rawInput(null, 'axis', 0), 0);
  assert.equal(bindingValue({ kind: 'axis', index: 1, invert: true }, p), 1);
  assert.equal(bindingValue({ kind: 'axis', index: 0, invert: false }, p), 0.25);
});

test('default layout as on the machine: one 3-axis stick, two handles on axes 3 and 4', () => {
  const store = fakeStorage();
  const stick = pad('Logitech Extreme 3D', [-1, -1, 0.5, 1, -0.5]);
  const resolved = resolveMappings(store, [stick]);
  assert.equal(resolved[0].stored, false);
  const v = computeVolts(resolved);
  // stick left: counter-clockwise (+); stick forward (-1) lowers the boom
  close(v[0], 5);
  close(v[1], -5);
  close(v[2], 5 * (0.5 - DEFAULT_DEADZONE) / (1 - DEFAULT_DEADZONE));
  close(v[3], 5);
  close(v[4], -5 * (0.5 - DEFAULT_DEADZONE) / (1 - DEFAULT_DEADZONE));
  assert.deepEqual(boundSignals(resolved), ['swing', 'boom', 'telescope', 'cable1', 'cable2']);
});

test('no device: all zero; a device with too few axes reads zero on the missing ones', () => {
  assert.deepEqual(computeVolts(resolveMappings(fakeStorage(), [])), [0, 0, 0, 0, 0]);
  assert.deepEqual(computeVolts(resolveMappings(fakeStorage(), [null, null])), [0, 0, 0, 0, 0]);
  const v = computeVolts(resolveMappings(fakeStorage(), [pad('2-axis', [0, 1])]));
  assert.deepEqual(v, [0, 5, 0, 0, 0]);
});

test('several devices: stick, two single-axis handles and a button box, each mapped and saved by id', () => {
  const store = fakeStorage();
  const stick = pad('stick', [0, 0, 0], [], 0);
  const h1 = pad('handle', [0.6], [], 1);
  const h2 = pad('handle', [-1], [], 2);       // identical model: keyed "handle #2"
  const box = pad('buttons', [], [0, 1], 3);
  const keys = deviceKeys([stick, h1, h2, box]);
  assert.deepEqual(keys, ['stick', 'handle', 'handle #2', 'buttons']);
  const assignment = {
    signals: {
      swing: [{ device: 'stick', kind: 'axis', index: 0, invert: true }],
      boom: [{ device: 'stick', kind: 'axis', index: 1, invert: false }],
      telescope: [{ device: 'buttons', kind: 'button', index: 0, invert: false },
        { device: 'buttons', kind: 'button', index: 1, invert: true }],
      cable1: [{ device: 'handle', kind: 'axis', index: 0, invert: false }],
      cable2: [{ device: 'handle #2', kind: 'axis', index: 0, invert: true }],
    },
    deadzone: { swing: 0.1, boom: 0.1, telescope: 0, cable1: 0.2, cable2: 0 },
    actions: { nextView: { device: 'stick', kind: 'button', index: 3 } },
  };
  const per = mappingsFromAssignment(assignment, keys);
  for (const [k, m] of Object.entries(per)) saveDeviceMapping(store, k, m);
  assert.deepEqual(store.keys().sort(), keys.map(storageKey).sort());
  assert.deepEqual(Object.keys(loadDeviceMapping(store, 'handle').signals), ['cable1']);

  const resolved = resolveMappings(store, [stick, h1, h2, box]);
  const v = computeVolts(resolved);
  assert.deepEqual(v.map((x) => Math.round(x * 1000) / 1000), [0, 0, -5, 2.5, 5]);
  // and back: the screen shows what was saved
  const again = assignmentFromResolved(resolved);
  assert.deepEqual(again.signals.cable2, assignment.signals.cable2);
  assert.equal(again.deadzone.cable1, 0.2);
  assert.deepEqual(again.actions.nextView, assignment.actions.nextView);
});

test('stored mappings win over the default; an unplugged device contributes nothing', () => {
  const store = fakeStorage();
  saveDeviceMapping(store, 'pedals', { signals: { boom: [{ kind: 'axis', index: 0 }] }, deadzone: { boom: 0 } });
  const stick = pad('stick', [1, 1, 1, 1, 1]);
  const pedals = pad('pedals', [0.5], [], 1);
  // the stick has no mapping of its own, but one device does: no default layout
  let v = computeVolts(resolveMappings(store, [stick, pedals]));
  assert.deepEqual(v, [0, 2.5, 0, 0, 0]);
  // pedals unplugged: only the stick is left, nothing stored for it: the default applies
  v = computeVolts(resolveMappings(store, [stick]));
  assert.deepEqual(v, [-5, 5, 5, 5, 5]);
});

test('persistence is per device id and survives garbage in storage', () => {
  const store = fakeStorage({ [storageKey('bad json')]: '{nope', [storageKey('weird')]: '{"signals":{"swing":[{"kind":"laser","index":0}],"boom":[{"kind":"axis","index":-3}],"cable1":[{"kind":"button","index":2,"invert":1}]},"deadzone":{"cable1":7}}' });
  assert.equal(loadDeviceMapping(store, 'bad json'), null);
  assert.equal(loadDeviceMapping(store, 'absent'), null);
  const w = loadDeviceMapping(store, 'weird');
  assert.deepEqual(w.signals, { cable1: [{ kind: 'button', index: 2, invert: true }] });
  assert.equal(w.deadzone.cable1, DEFAULT_DEADZONE);
  saveDeviceMapping(store, 'a', defaultMapping());
  assert.deepEqual(loadDeviceMapping(store, 'a'), defaultMapping());
  clearDeviceMapping(store, 'a');
  assert.equal(loadDeviceMapping(store, 'a'), null);
  const broken = { getItem() { throw new Error('denied'); }, setItem() { throw new Error('full'); }, removeItem() { throw new Error('x'); } };
  assert.equal(loadDeviceMapping(broken, 'a'), null);
  assert.equal(saveDeviceMapping(broken, 'a', defaultMapping()), false);
  clearDeviceMapping(broken, 'a');
});

test('driving devices: those with a signal bound, not a pad that only switches views', () => {
  const store = fakeStorage();
  const stick = pad('stick');
  const viewBox = pad('view box', [], [0, 0], 1);
  const spare = pad('spare', [0, 0], [], 2);
  saveDeviceMapping(store, 'stick', defaultMapping());
  saveDeviceMapping(store, 'view box', { actions: { nextView: { kind: 'button', index: 0 } } });
  assert.deepEqual(drivingDevices(resolveMappings(store, [stick, viewBox, spare])).map((d) => d.key), ['stick']);
  // nothing stored: the default layout makes the first device the driving one
  assert.deepEqual(drivingDevices(resolveMappings(fakeStorage(), [null, spare, stick])).map((d) => d.key), ['spare']);
  assert.deepEqual(drivingDevices(resolveMappings(fakeStorage(), [])), []);
});

test('sanitize keeps at most two bindings per signal', () => {
  const m = sanitizeMapping({ signals: { swing: [0, 1, 2].map((i) => ({ kind: 'axis', index: i })) } });
  assert.equal(m.signals.swing.length, 2);
  assert.deepEqual(sanitizeMapping(null).signals, {});
});

test('next-view and restart actions: pressed state and rising edge', () => {
  const store = fakeStorage();
  const p = pad('stick', [0, 0, 0, 0, 0], [0, 1]);
  assert.equal(actionPressed(resolveMappings(store, [p]), 'nextView'), true);  // default button 1
  assert.equal(actionPressed(resolveMappings(store, [p]), 'restart'), false);
  const q = pad('stick', [0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  assert.equal(actionPressed(resolveMappings(store, [q]), 'restart'), true);  // default button 9
  assert.equal(actionPressed(resolveMappings(store, [q]), 'nextView'), false);
  const edge = makeEdgeDetector();
  assert.deepEqual([true, true, false, true].map(edge), [true, false, false, true]);
});

test('learn mode finds the input that moved most, with its direction', () => {
  const p = pad('stick', [0, 0, 0], [0, 0]);
  const before = snapshotInputs(p);
  assert.equal(detectMovedInput(before, p), null);
  p.axes[2] = -0.9;
  p.axes[0] = 0.3;
  assert.deepEqual(detectMovedInput(before, p), { kind: 'axis', index: 2, delta: 0.9, invert: true });
  const q = pad('box', [], [0, 0, 0]);
  const b2 = snapshotInputs(q);
  q.buttons[2] = { value: 1, pressed: true };
  assert.equal(detectMovedInput(b2, q).index, 2);
  assert.equal(detectMovedInput(b2, q).kind, 'button');
});
