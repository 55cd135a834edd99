import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  rumbleFor, makeRumbleTracker, playRumble, canRumble, loadRumbleEnabled, saveRumbleEnabled,
  RUMBLES, RUMBLE_COUNTERS, RUMBLE_STORAGE_KEY,
} from '../js/haptics.js';

const ZERO = Object.freeze({ rack_gate_hits: 0, structure_hits: 0, load_impacts: 0,
  slack_cables: 0, overloads: 0, grips: 0, releases: 0 });
const ev = (extra = {}) => ({ ...ZERO, ...extra });

// a gamepad whose actuator records what it was asked to play
function rumblePad({ effects, result = Promise.resolve('complete') } = {}) {
  const calls = [];
  return {
    id: 'stick', calls,
    vibrationActuator: { ...(effects ? { effects } : {}), playEffect(type, params) { calls.push([type, params]); return result; } },
  };
}

test('rumbleFor: a strong short rumble for a rack/gate or world hit', () => {
  for (const counter of ['rack_gate_hits', 'structure_hits']) {
    const e = rumbleFor(ev(), ev({ [counter]: 1 }));
    assert.equal(e.kind, 'hit');
    assert.equal(e.counter, counter);
    assert.deepEqual({ startDelay: e.startDelay, duration: e.duration, strongMagnitude: e.strongMagnitude, weakMagnitude: e.weakMagnitude },
      { startDelay: 0, duration: 250, strongMagnitude: 1, weakMagnitude: 0.6 });
  }
});

test('rumbleFor: medium for an overload, light for slack, a brief click for grips and releases', () => {
  assert.equal(rumbleFor(ev(), ev({ overloads: 1 })).kind, 'overload');
  assert.equal(rumbleFor(ev(), ev({ slack_cables: 2 })).kind, 'slack');
  assert.equal(rumbleFor(ev({ grips: 1 }), ev({ grips: 2 })).kind, 'click');
  assert.equal(rumbleFor(ev(), ev({ releases: 1 })).kind, 'click');
  // strength falls along the list, and the click is the shortest
  const order = ['hit', 'overload', 'slack', 'click'];
  assert.deepEqual(Object.keys(RUMBLES), order);
  for (let i = 1; i < order.length; i++) {
    const a = RUMBLES[order[i - 1]], b = RUMBLES[order[i]];
    assert.ok(a.strongMagnitude + a.weakMagnitude > b.strongMagnitude + b.weakMagnitude, `${order[i - 1]} > ${order[i]}`);
  }
  assert.ok(RUMBLES.click.duration < RUMBLES.slack.duration);
});

test('rumbleFor: nothing when nothing rose, for load impacts, or without a previous frame', () => {
  assert.equal(rumbleFor(ev({ grips: 3 }), ev({ grips: 3 })), null);
  assert.equal(rumbleFor(ev(), ev({ load_impacts: 1 })), null, 'a loose load hitting something is not felt');
  assert.equal(rumbleFor(null, ev({ rack_gate_hits: 4 })), null, 'the first frame is a baseline');
  assert.equal(rumbleFor(ev(), undefined), null);
  assert.equal(rumbleFor(ev(), {}), null, 'counters missing: nothing to compare');
  assert.equal(rumbleFor({}, ev({ grips: 1 })), null, 'a counter new to this frame is a baseline');
});

test('rumbleFor: several rise in one frame: the strongest plays', () => {
  assert.equal(rumbleFor(ev(), ev({ grips: 1, slack_cables: 1, structure_hits: 1 })).kind, 'hit');
  assert.equal(rumbleFor(ev(), ev({ releases: 1, overloads: 2 })).kind, 'overload');
  assert.equal(rumbleFor(ev(), ev({ releases: 1, slack_cables: 1 })).kind, 'slack');
  assert.equal(rumbleFor(ev(), ev({ structure_hits: 1, rack_gate_hits: 1 })).counter, 'rack_gate_hits');
  assert.equal(RUMBLE_COUNTERS.length, 9);
});

test('rumbleFor: a counter that goes down (task restarted) is a new baseline, not an event', () => {
  assert.equal(rumbleFor(ev({ rack_gate_hits: 3 }), ev()), null);
  // the restart cleared every counter; one already at 1 in the new attempt's first frame is no event either
  assert.equal(rumbleFor(ev({ rack_gate_hits: 3, grips: 2 }), ev({ slack_cables: 1 })), null);
});

test('tracker: rises between frames rumble once; a restart is a baseline; reset forgets', () => {
  const tr = makeRumbleTracker();
  assert.equal(tr.update(ev({ structure_hits: 2 }), 0), null, 'first frame: baseline');
  assert.equal(tr.update(ev({ structure_hits: 2 }), 50), null);
  assert.equal(tr.update(ev({ structure_hits: 3 }), 100).kind, 'hit');
  assert.equal(tr.update(ev({ structure_hits: 3 }), 150), null, 'once per rise');
  assert.equal(tr.update(undefined, 200), null, 'a frame without counters changes nothing');
  assert.equal(tr.update(ev({ structure_hits: 3, grips: 1 }), 1000).kind, 'click');
  assert.equal(tr.update(ev(), 1050), null, 'counters back to 0: restarted');
  assert.equal(tr.update(ev({ grips: 1 }), 1100).kind, 'click', 'and counting from the new baseline');
  tr.reset();
  assert.equal(tr.update(ev({ grips: 2 }), 1200), null, 'after reset the next frame is a baseline');
});

test('tracker: a weaker effect does not cut a stronger one short; a stronger or equal one does', () => {
  const tr = makeRumbleTracker();
  tr.update(ev(), 0);
  assert.equal(tr.update(ev({ rack_gate_hits: 1 }), 1000).kind, 'hit');
  assert.equal(tr.update(ev({ rack_gate_hits: 1, grips: 1 }), 1050), null, 'the hit is still playing');
  assert.equal(tr.update(ev({ rack_gate_hits: 2, grips: 1 }), 1100).kind, 'hit', 'a second hit jolts again');
  assert.equal(tr.update(ev({ rack_gate_hits: 2, grips: 1, releases: 1 }), 1100 + RUMBLES.hit.duration).kind, 'click', 'after it ends');
  assert.equal(tr.update(ev({ rack_gate_hits: 2, grips: 1, releases: 1, overloads: 1 }), 1360).kind, 'overload',
    'a stronger one cuts a weaker one');
});

test('playRumble: dual-rumble through vibrationActuator, with the effect\'s numbers', () => {
  const pad = rumblePad();
  const effect = rumbleFor(ev(), ev({ rack_gate_hits: 1 }));
  assert.equal(canRumble(pad), true);
  assert.equal(playRumble(pad, effect), true);
  assert.deepEqual(pad.calls, [['dual-rumble', { startDelay: 0, duration: 250, weakMagnitude: 0.6, strongMagnitude: 1 }]]);
  assert.equal(playRumble(rumblePad({ effects: ['dual-rumble', 'trigger-rumble'] }), effect), true);
});

test('playRumble: absent, unsupported, throwing or refusing actuators never throw', async () => {
  const effect = { kind: 'click', ...RUMBLES.click };
  assert.equal(playRumble({ id: 'no actuator' }, effect), false);
  assert.equal(playRumble(null, effect), false);
  assert.equal(playRumble(rumblePad(), null), false);
  assert.equal(playRumble({ vibrationActuator: null }, effect), false);
  assert.equal(playRumble({ vibrationActuator: {} }, effect), false);
  assert.equal(canRumble(rumblePad({ effects: ['trigger-rumble-only'] })), false);
  assert.equal(playRumble(rumblePad({ effects: [] }), effect), false, 'effects listed, dual-rumble not among them');
  const throws = { vibrationActuator: { playEffect() { throw new Error('gone'); } } };
  assert.equal(playRumble(throws, effect), false);
  // a refused request (not allowed, unplugged) rejects: caught, no unhandled rejection
  const refused = rumblePad({ result: Promise.reject(new Error('NotAllowedError')) });
  assert.equal(playRumble(refused, effect), true);
  await new Promise((r) => setTimeout(r, 0));
  // an actuator that returns nothing at all
  assert.equal(playRumble({ vibrationActuator: { playEffect() {} } }, effect), true);
});

test('playRumble: older Firefox hapticActuators[0].pulse(value, duration)', () => {
  const pulses = [];
  const pad = { hapticActuators: [{ pulse: (v, ms) => { pulses.push([v, ms]); return Promise.resolve(true); } }] };
  assert.equal(canRumble(pad), true);
  assert.equal(playRumble(pad, { kind: 'hit', ...RUMBLES.hit }), true);
  assert.deepEqual(pulses, [[1, 250]]);
  assert.equal(canRumble({ hapticActuators: [] }), false);
});

test('setting: on by default, saved as on/off, blocked storage reads as on', () => {
  const m = new Map();
  const storage = { getItem: (k) => (m.has(k) ? m.get(k) : null), setItem: (k, v) => m.set(k, String(v)) };
  assert.equal(loadRumbleEnabled(storage), true);
  assert.equal(saveRumbleEnabled(storage, false), true);
  assert.equal(m.get(RUMBLE_STORAGE_KEY), 'off');
  assert.equal(loadRumbleEnabled(storage), false);
  saveRumbleEnabled(storage, true);
  assert.equal(loadRumbleEnabled(storage), true);
  const blocked = { getItem() { throw new Error('SecurityError'); }, setItem() { throw new Error('QuotaExceededError'); } };
  assert.equal(loadRumbleEnabled(blocked), true);
  assert.equal(saveRumbleEnabled(blocked, false), false);
});

test('rumbleFor: a tip-over is the hardest jolt, the limiters stopping the motions an overload\'s; an LMI warning is not felt', () => {
  const z = { ...ZERO, tip_overs: 0, lmi_cutouts: 0, lmi_warnings: 0, two_blocks: 0 };
  assert.deepEqual(rumbleFor(z, { ...z, tip_overs: 1, grips: 1 }), { kind: 'hit', counter: 'tip_overs', startDelay: 0, ...RUMBLES.hit });
  assert.equal(rumbleFor(z, { ...z, lmi_cutouts: 1 }).kind, 'overload');
  assert.equal(rumbleFor(z, { ...z, two_blocks: 1 }).kind, 'overload');
  assert.equal(rumbleFor(z, { ...z, lmi_warnings: 1 }), null);
});
