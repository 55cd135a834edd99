// Reads the operator: gamepads through their mappings (mapping.js) plus the keyboard as a
// fallback. poll() gives the five volts of this instant; the sender decides when to send.
// No DOM at import time: the target, storage and gamepad source are handed in.

import { resolveMappings, computeVolts, actionPressed, makeEdgeDetector, boundSignals, drivingDevices } from './mapping.js';
import { VOLT_LIMIT } from './protocol.js';
import { playRumble, canRumble } from './haptics.js';

// key -> [signal index, direction]; positive: swing counter-clockwise, boom up, extend, reel in
export const KEY_BINDINGS = Object.freeze({
  ArrowLeft: [0, 1], ArrowRight: [0, -1],
  ArrowUp: [1, 1], ArrowDown: [1, -1],
  KeyW: [2, 1], KeyS: [2, -1],
  KeyQ: [3, 1], KeyA: [3, -1],
  KeyE: [4, 1], KeyD: [4, -1],
});

// What a key is called on the keyboard: "KeyA" -> "A", "ArrowUp" -> "↑".
const ARROWS = { ArrowLeft: '←', ArrowRight: '→', ArrowUp: '↑', ArrowDown: '↓' };
function keyName(code) {
  return ARROWS[code] ?? code.replace(/^Key|^Digit/, '');
}

// The key that drives `signal` (0 swing .. 4 cable 2) in `direction` (+1 / -1), from
// KEY_BINDINGS: the one place a hint (the first lesson's) turns a control into a key.
// '?' when no key drives it.
export function keyLabel(signal, direction) {
  for (const [code, [s, d]] of Object.entries(KEY_BINDINGS)) {
    if (s === signal && d === direction) return keyName(code);
  }
  return '?';
}

// Held keys at full scale, or half with Shift.
export function keysToVolts(codes, half = false) {
  const v = [0, 0, 0, 0, 0];
  for (const code of codes) {
    const b = KEY_BINDINGS[code];
    if (b) v[b[0]] += b[1] * VOLT_LIMIT * (half ? 0.5 : 1);
  }
  return v.map((x) => Math.max(-VOLT_LIMIT, Math.min(VOLT_LIMIT, x)));
}

// A key event aimed at a text field (the trainee's name, a deadzone, a select) is typing,
// not flying; main.js's shortcuts ask the same.
export function isTypingTarget(t) {
  return Boolean(t && (t.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(t.tagName)));
}

function typing(ev) {
  return isTypingTarget(ev.target);
}

export function createInput({ target, storage, getGamepads }) {
  const held = new Set();
  let shift = false;
  const nextViewEdge = makeEdgeDetector();
  const restartEdge = makeEdgeDetector();

  target.addEventListener('keydown', (ev) => {
    shift = ev.shiftKey;
    if (typing(ev) || !(ev.code in KEY_BINDINGS)) return;
    held.add(ev.code);
    ev.preventDefault();
  });
  target.addEventListener('keyup', (ev) => {
    shift = ev.shiftKey;
    held.delete(ev.code);
  });

  function pads() {
    try {
      return Array.from(getGamepads() ?? []);
    } catch {
      return [];  // blocked by a permissions policy
    }
  }

  return {
    // keys held when the window lost focus would otherwise stay down
    clearKeys() { held.clear(); },
    pads,
    resolved() { return resolveMappings(storage, pads()); },
    // the devices driving the crane, and whether each can rumble
    driving() {
      return drivingDevices(resolveMappings(storage, pads())).map(({ pad, key }) => ({ key, canRumble: canRumble(pad) }));
    },
    // plays a haptics.js effect on the devices driving the crane; the keys it was asked of
    rumble(effect) {
      return drivingDevices(resolveMappings(storage, pads())).filter(({ pad }) => playRumble(pad, effect)).map((d) => d.key);
    },
    poll() {
      const resolved = resolveMappings(storage, pads());
      const joy = computeVolts(resolved);
      const keys = keysToVolts(held, shift);
      const volts = joy.map((v, i) => Math.max(-VOLT_LIMIT, Math.min(VOLT_LIMIT, v + keys[i])));
      return {
        volts,
        devices: resolved.map((d) => d.key),
        bound: boundSignals(resolved),
        keyboard: held.size > 0,
        nextView: nextViewEdge(actionPressed(resolved, 'nextView')),
        restart: restartEdge(actionPressed(resolved, 'restart')),
      };
    },
  };
}
