import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { keysToVolts, createInput, isTypingTarget, setKeyboardLayout, keyLabel } from '../js/input.js';
import { parseKeyboardLayout } from '../js/keyboard.js';

// the layout the server sends is config/keyboard.json's shape
const layout = parseKeyboardLayout(JSON.parse(readFileSync(new URL('../../config/keyboard.json', import.meta.url))));

test('input: no key drives the crane before the layout came', () => {
  setKeyboardLayout(null);
  assert.deepEqual(keysToVolts(['ArrowLeft', 'KeyQ']), [0, 0, 0, 0, 0]);
  assert.equal(keyLabel(0, 1), '?');
});

test('keyboard fallback: each key of config/keyboard.json drives one signal at full or half scale', () => {
  setKeyboardLayout(layout);
  assert.deepEqual(keysToVolts(new Set()), [0, 0, 0, 0, 0]);
  assert.deepEqual(keysToVolts(['ArrowLeft', 'ArrowUp', 'KeyW', 'KeyQ', 'KeyE']), [5, 5, 5, 5, 5]);
  assert.deepEqual(keysToVolts(['ArrowRight', 'ArrowDown', 'KeyS', 'KeyA', 'KeyD']), [-5, -5, -5, -5, -5]);
  assert.deepEqual(keysToVolts(['ArrowLeft', 'ArrowRight']), [0, 0, 0, 0, 0]);
  assert.deepEqual(keysToVolts(['KeyQ'], true), [0, 0, 0, 2.5, 0]);
  assert.equal(Object.keys(layout.bindings).length, 10);
});

test('keyLabel: the label of the key driving a signal one way, from the layout', () => {
  setKeyboardLayout(layout);
  assert.equal(keyLabel(0, 1), '←');
  assert.equal(keyLabel(1, -1), '↓');
  assert.equal(keyLabel(3, 1), 'Q');
  assert.equal(keyLabel(4, -1), 'D');
  assert.equal(keyLabel(7, 1), '?');
});

test('input: Shift halves the held keys', () => {
  setKeyboardLayout(layout);
  const listeners = {};
  const input = createInput({ target: { addEventListener: (t, f) => { listeners[t] = f; } },
    storage: { getItem: () => null }, getGamepads: () => [] });
  listeners.keydown({ code: 'ArrowUp', shiftKey: true, target: { tagName: 'BODY' }, preventDefault() {} });
  assert.deepEqual(input.poll().volts, [0, 2.5, 0, 0, 0]);
  listeners.keydown({ code: 'KeyW', shiftKey: false, target: { tagName: 'BODY' }, preventDefault() {} });
  assert.deepEqual(input.poll().volts, [0, 5, 5, 0, 0]);
});

test('input: keys held plus joystick, clamped; keys released on clear', () => {
  setKeyboardLayout(layout);
  const listeners = {};
  const target = { addEventListener: (t, f) => { listeners[t] = f; } };
  const storage = { getItem: () => null, setItem() {}, removeItem() {} };
  const pad = { id: 'stick', index: 0, axes: [-1, 0, 0, 0, 0], buttons: [] };
  const input = createInput({ target, storage, getGamepads: () => [pad] });
  const key = (type, code) => listeners[type]({ code, shiftKey: false, target: { tagName: 'BODY' }, preventDefault() {} });
  key('keydown', 'ArrowLeft');
  key('keydown', 'KeyE');
  const p = input.poll();
  assert.deepEqual(p.volts, [5, 0, 0, 0, 5]);   // stick left (+5) and key left (+5) clamp at 5
  assert.equal(p.keyboard, true);
  assert.deepEqual(p.devices, ['stick']);
  input.clearKeys();
  assert.deepEqual(input.poll().volts, [5, 0, 0, 0, 0]);
  key('keydown', 'ArrowUp');
  key('keyup', 'ArrowUp');
  assert.deepEqual(input.poll().volts, [5, 0, 0, 0, 0]);
  // typing in a form field does not drive the crane
  listeners.keydown({ code: 'KeyW', target: { tagName: 'INPUT' }, preventDefault() {} });
  assert.deepEqual(input.poll().volts, [5, 0, 0, 0, 0]);
});

test('input: text fields are typing (the shortcuts in pages/controls.js ask the same)', () => {
  assert.equal(isTypingTarget({ tagName: 'INPUT' }), true);
  assert.equal(isTypingTarget({ tagName: 'TEXTAREA' }), true);
  assert.equal(isTypingTarget({ tagName: 'SELECT' }), true);
  assert.equal(isTypingTarget({ tagName: 'DIV', isContentEditable: true }), true);
  assert.equal(isTypingTarget({ tagName: 'BODY' }), false);
  assert.equal(isTypingTarget({ tagName: 'BUTTON' }), false);
  assert.equal(isTypingTarget(null), false);
});

test('input: a getGamepads that throws (permissions policy) reads as no device', () => {
  const input = createInput({ target: { addEventListener() {} }, storage: { getItem: () => null },
    getGamepads: () => { throw new Error('blocked'); } });
  assert.deepEqual(input.poll().volts, [0, 0, 0, 0, 0]);
});

test('input: the restart button fires once per press (default button 9)', () => {
  const storage = { getItem: () => null, setItem() {}, removeItem() {} };
  const buttons = Array.from({ length: 12 }, () => ({ pressed: false, value: 0 }));
  const pad = { id: 'stick', index: 0, axes: [0, 0, 0, 0, 0], buttons };
  const input = createInput({ target: { addEventListener() {} }, storage, getGamepads: () => [pad] });
  assert.equal(input.poll().restart, false);
  buttons[9] = { pressed: true, value: 1 };
  assert.equal(input.poll().restart, true);
  assert.equal(input.poll().restart, false, 'held: not again');
  buttons[9] = { pressed: false, value: 0 };
  input.poll();
  buttons[9] = { pressed: true, value: 1 };
  assert.equal(input.poll().restart, true);
});

test('input: rumble goes to the devices driving the crane only, and never throws', () => {
  const calls = [];
  const actuator = (id) => ({ playEffect(type, params) { calls.push([id, type, params.duration]); return Promise.resolve('complete'); } });
  const stick = { id: 'stick', index: 0, axes: [0, 0, 0, 0, 0], buttons: [], vibrationActuator: actuator('stick') };
  const wheel = { id: 'wheel', index: 1, axes: [0, 0], buttons: [], vibrationActuator: actuator('wheel') };
  const plain = { id: 'plain', index: 2, axes: [0], buttons: [] };
  const stored = { 'clamsim.mapping.v1:plain': JSON.stringify({ signals: { boom: [{ kind: 'axis', index: 0 }] } }),
    'clamsim.mapping.v1:stick': JSON.stringify({ signals: { swing: [{ kind: 'axis', index: 0 }] } }) };
  const storage = { getItem: (k) => stored[k] ?? null, setItem() {}, removeItem() {} };
  let pads = [stick, wheel, plain];
  const input = createInput({ target: { addEventListener() {} }, storage, getGamepads: () => pads });
  const effect = { kind: 'hit', startDelay: 0, duration: 250, strongMagnitude: 1, weakMagnitude: 0.6 };
  // the wheel is connected (and could rumble) but drives nothing; plain drives but cannot rumble
  assert.deepEqual(input.driving(), [{ key: 'stick', canRumble: true }, { key: 'plain', canRumble: false }]);
  assert.deepEqual(input.rumble(effect), ['stick']);
  assert.deepEqual(calls, [['stick', 'dual-rumble', 250]]);
  pads = [];
  assert.deepEqual(input.rumble(effect), []);
  const blocked = createInput({ target: { addEventListener() {} }, storage, getGamepads: () => { throw new Error('blocked'); } });
  assert.deepEqual(blocked.rumble(effect), []);
});
