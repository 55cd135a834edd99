// Haptic feedback: on the real machine the operator feels a collision as a change in the
// ropes (thesis 1.1); here the joystick rumbles when an event counter of a display frame
// rises. Pure decisions over plain objects and a clock in ms; playing goes through the
// Gamepad API (vibrationActuator.playEffect, or hapticActuators[0].pulse in older
// Firefox), feature-detected and never throwing.

// Effects, strongest first (the order decides which one plays when several rise at once).
// Durations in ms, magnitudes 0..1 (strong: the low-frequency motor, weak: the high one).
export const RUMBLES = Object.freeze({
  hit: Object.freeze({ duration: 250, strongMagnitude: 1.0, weakMagnitude: 0.6 }),
  overload: Object.freeze({ duration: 200, strongMagnitude: 0.6, weakMagnitude: 0.4 }),
  slack: Object.freeze({ duration: 120, strongMagnitude: 0.15, weakMagnitude: 0.35 }),
  click: Object.freeze({ duration: 40, strongMagnitude: 0, weakMagnitude: 0.4 }),
});
const RANK = Object.keys(RUMBLES);

// display.events counter -> effect. load_impacts (a loose load striking something) is not
// felt: nothing the ropes hold was hit. A tip-over is felt as the hardest jolt; a limiter
// stopping the motions (the load moment cut-out, the anti-two-block switch) as the stick's
// motions dying, like an overload. The load moment warning is not felt: a real indicator
// warns by light and horn, the motions go on.
export const RUMBLE_COUNTERS = Object.freeze([
  ['tip_overs', 'hit'],
  ['rack_gate_hits', 'hit'],
  ['structure_hits', 'hit'],
  ['lmi_cutouts', 'overload'],
  ['two_blocks', 'overload'],
  ['overloads', 'overload'],
  ['slack_cables', 'slack'],
  ['grips', 'click'],
  ['releases', 'click'],
]);

const count = (ev, k) => (typeof ev?.[k] === 'number' && Number.isFinite(ev[k]) ? ev[k] : null);

// The effect for the counters that rose from `previous` to `events` (the strongest one),
// or null. No previous frame: a baseline. Any counter lower than before: the task
// restarted, so this frame is the new baseline, not an event.
export function rumbleFor(previous, events) {
  if (!previous || !events) return null;
  let risen = null;
  for (const [counter, kind] of RUMBLE_COUNTERS) {
    const before = count(previous, counter), now = count(events, counter);
    if (before === null || now === null) continue;
    if (now < before) return null;
    if (now > before && !risen) risen = { kind, counter };
  }
  if (!risen) return null;
  return { ...risen, startDelay: 0, ...RUMBLES[risen.kind] };
}

// Follows the counters frame by frame. update() gives the effect to play now, or null; a
// weaker effect does not cut short a stronger one still playing (a grip right after a hit).
export function makeRumbleTracker() {
  let last = null;
  let playing = null;  // {rank, until}
  return {
    reset() {
      last = null;
      playing = null;
    },
    update(events, now) {
      if (!events) return null;  // a frame without counters changes nothing
      const effect = rumbleFor(last, events);
      last = { ...events };
      if (!effect) return null;
      const rank = RANK.indexOf(effect.kind);
      if (playing && now < playing.until && rank > playing.rank) return null;
      playing = { rank, until: now + effect.duration };
      return effect;
    },
  };
}

// Whether a gamepad reports an actuator this page can play.
export function canRumble(pad) {
  const a = pad?.vibrationActuator;
  if (a && typeof a.playEffect === 'function') return !Array.isArray(a.effects) || a.effects.includes('dual-rumble');
  return typeof pad?.hapticActuators?.[0]?.pulse === 'function';
}

// Plays the effect on one gamepad; true when it was asked to. A device without an actuator,
// a refused request or one preempted by the next effect is ignored, never thrown.
export function playRumble(pad, effect) {
  if (!effect || !canRumble(pad)) return false;
  const { duration, strongMagnitude, weakMagnitude } = effect;
  try {
    const a = pad.vibrationActuator;
    const p = a && typeof a.playEffect === 'function'
      ? a.playEffect('dual-rumble', { startDelay: 0, duration, weakMagnitude, strongMagnitude })
      : pad.hapticActuators[0].pulse(Math.max(strongMagnitude, weakMagnitude), duration);
    p?.catch?.(() => {});
    return true;
  } catch {
    return false;
  }
}

// The user's setting, on unless turned off; kept in localStorage beside the mappings.
export const RUMBLE_STORAGE_KEY = 'clamsim.rumble.v1';

export function loadRumbleEnabled(storage) {
  try {
    return storage.getItem(RUMBLE_STORAGE_KEY) !== 'off';
  } catch {
    return true;
  }
}

export function saveRumbleEnabled(storage, on) {
  try {
    storage.setItem(RUMBLE_STORAGE_KEY, on ? 'on' : 'off');
    return true;
  } catch {
    return false;  // storage full or blocked: the setting holds for this page only
  }
}
