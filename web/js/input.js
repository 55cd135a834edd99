// Reads the operator: gamepads through their mappings (mapping.js) plus the keyboard as a
// fallback. poll() gives the five volts of this instant; the sender decides when to send.
// No DOM at import time: the target, storage and gamepad source are handed in.

import { resolveMappings, computeVolts, actionPressed, makeEdgeDetector, boundSignals, drivingDevices } from './mapping.js';
import { VOLT_LIMIT } from './protocol.js';
import { playRumble, canRumble } from './haptics.js';

// The keyboard layout (keyboard.js's parseKeyboardLayout of the server's); until it comes,
// no key drives the crane.
let layout = null;

export function setKeyboardLayout(parsed) {
  layout = parsed;
}

export function keyboardLayout() {
  return layout;
}

// The key that drives `signal` (0 swing .. 4 cable 2) in `direction` (+1 / -1), as the
// layout labels it: the one place a hint (the first lesson's) turns a control into a key.
// '?' when no key drives it (no layout yet).
export function keyLabel(signal, direction) {
  const s = layout?.signals[signal];
  if (!s) return '?';
  return direction > 0 ? s.plus.label : s.minus.label;
}

// Held keys at full scale, or half with the half-speed key.
export function keysToVolts(codes, half = false) {
  const v = [0, 0, 0, 0, 0];
  for (const code of codes) {
    const b = layout?.bindings[code];
    if (b) v[b[0]] += b[1] * VOLT_LIMIT * (half ? 0.5 : 1);
  }
  return v.map((x) => Math.max(-VOLT_LIMIT, Math.min(VOLT_LIMIT, x)));
}

// Shift is a modifier the event reports; any other half-speed key is held like the rest.
function halfSpeedHeld(held, shift) {
  const key = layout?.actions.half_speed?.key;
  return key === 'Shift' ? shift : held.has(key);
}

// A key event aimed at a text field (the trainee's name, a deadzone, a select) is typing,
// not flying; the page's shortcuts (pages/controls.js) ask the same.
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
    const half = ev.code === layout?.actions.half_speed?.key;
    if (typing(ev) || !(layout?.bindings[ev.code] || half)) return;
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
      const keys = keysToVolts(held, halfSpeedHeld(held, shift));
      const volts = joy.map((v, i) => Math.max(-VOLT_LIMIT, Math.min(VOLT_LIMIT, v + keys[i])));
      return {
        volts,
        devices: resolved.map((d) => d.key),
        bound: boundSignals(resolved),
        keyboard: [...held].some((code) => layout?.bindings[code]),
        nextView: nextViewEdge(actionPressed(resolved, 'nextView')),
        restart: restartEdge(actionPressed(resolved, 'restart')),
      };
    },
  };
}
