// web/js/sound-model.js: the machine's sound from the frames (engine, whine, relief, drums,
// one-shots) and the stored volume.
import test from 'node:test';
import assert from 'node:assert/strict';

import { ENGINE, demand, engineRpm, flow, relief, drums, oneShots, soundTargets, loadSoundSettings,
  saveSoundSettings, DEFAULT_SETTINGS, SOUND_STORAGE_KEY } from '../js/sound-model.js';

const RELIEF = [21, 21, 21, 16, 16];   // MPa per channel, ControlSignal order
const CLAM_N = 775 * 9.81;

const frame = (over = {}) => ({
  joint_velocity: [0, 0, 0], cable_rate_m_s: [0, 0], pressure_MPa: Array(10).fill(0.3),
  tension_N: [CLAM_N / 2, CLAM_N / 2], clam_submerged: 0, contacts: [],
  events: { rack_gate_hits: 0, structure_hits: 0, load_impacts: 0 }, ...over });

test('the engine idles at rest and revs with the levers: two full levers are full demand', () => {
  assert.equal(demand([0, 0, 0, 0, 0]), 0);
  assert.equal(engineRpm([0, 0, 0, 0, 0]), ENGINE.idleRpm);
  assert.equal(demand([5, 0, 0, -5, 0]), 1);
  assert.equal(engineRpm([5, 5, 5, 5, 5]), ENGINE.maxRpm, 'more than full is full');
  assert.equal(demand([2.5, 0, 0, 0, 0]), 0.25);
  assert.equal(demand(null), 0);
  assert.equal(demand([NaN, 0, 0, 0, 0]), 0);
  // 750 rpm, three firings a revolution: 37.5 Hz
  assert.equal(soundTargets(frame(), [0, 0, 0, 0, 0], RELIEF).engineHz, 37.5);
  assert.equal(soundTargets(frame(), [5, 5, 0, 0, 0], RELIEF).engineHz, 105);
});

test('the pump whines with motion, the drums with their ropes', () => {
  assert.equal(flow(frame()), 0);
  assert.equal(flow(frame({ joint_velocity: [7.5, 0, 0] })), 0.5);
  assert.equal(flow(frame({ joint_velocity: [0, 30, 0] })), 1, 'capped at full voice');
  assert.equal(flow(frame({ cable_rate_m_s: [-0.3, 0] })), 0.5, 'either direction');
  assert.deepEqual(drums(frame({ cable_rate_m_s: [0.6, -0.15] })), [1, 0.25]);
  const still = soundTargets(frame(), [5, 0, 0, 0, 0], RELIEF);
  assert.equal(still.whine, 0, 'a lever against a stop moves no oil: no whine');
  const moving = soundTargets(frame({ joint_velocity: [15, 0, 0] }), [5, 0, 0, 0, 0], RELIEF);
  assert.ok(moving.whine > 0.6);
});

test('a relief valve squeals only near its channel\'s setting', () => {
  assert.equal(relief(frame(), RELIEF), 0);
  const p = Array(10).fill(0.3);
  p[7] = 0.9 * RELIEF[3];            // main hoist's second line, below the onset
  assert.equal(relief(frame({ pressure_MPa: p }), RELIEF), 0);
  p[7] = RELIEF[3];                   // at the setting: full squeal
  assert.equal(relief(frame({ pressure_MPa: p }), RELIEF), 1);
  p[7] = 0.965 * RELIEF[3];
  assert.ok(Math.abs(relief(frame({ pressure_MPa: p }), RELIEF) - 0.5) < 1e-9);
  assert.equal(relief(frame({ pressure_MPa: p }), null), 0, 'no settings from the server: silent');
});

test('one-shots: a splash entering the water, an impact per new hit, a snap when a slack rope comes taut', () => {
  assert.deepEqual(oneShots(frame(), null, CLAM_N), [], 'nothing before a previous frame');
  assert.deepEqual(oneShots(frame({ clam_submerged: 0.1 }), frame(), CLAM_N), [{ kind: 'splash', strength: 1 }]);
  assert.deepEqual(oneShots(frame({ clam_submerged: 0.2 }), frame({ clam_submerged: 0.1 }), CLAM_N), [],
    'already in the water');
  const hit = oneShots(frame({ events: { rack_gate_hits: 1 }, contacts: [{ force_N: 100000 }] }), frame(), CLAM_N);
  assert.equal(hit.length, 1);
  assert.equal(hit[0].kind, 'impact');
  assert.ok(Math.abs(hit[0].strength - 1) < 1e-9, '100 kN is a bang');
  const knock = oneShots(frame({ events: { load_impacts: 2 }, contacts: [{ force_N: 500 }] }), frame(), CLAM_N);
  assert.ok(Math.abs(knock[0].strength - 0.3) < 1e-9, 'a light knock');
  // the server's loop (display.flags.slack_m): rope 1 hung 0.3 m slack and is taut now
  const flags = (slackM) => ({ slack: [false, false], slack_m: slackM, overload: false, two_block: false });
  const slack = frame({ tension_N: [10, CLAM_N / 2], flags: flags([0.3, 0]) });
  const snap = oneShots(frame({ tension_N: [CLAM_N, CLAM_N / 2], flags: flags([0, 0]) }), slack, CLAM_N);
  assert.deepEqual(snap, [{ kind: 'snap', strength: 0.5 }]);
  assert.deepEqual(oneShots(frame({ tension_N: [CLAM_N, CLAM_N / 2], flags: flags([0, 0]) }), frame({ flags: flags([0, 0]) }), CLAM_N), [],
    'a rope that was never slack does not snap');
  assert.deepEqual(oneShots(frame({ tension_N: [CLAM_N, CLAM_N / 2], flags: flags([0.1, 0]) }), slack, CLAM_N), [],
    'a rope still hanging a loop has not come taut');
});

test('the listener\'s volume and mute are remembered, garbage gives the defaults', () => {
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  assert.deepEqual(loadSoundSettings(storage), DEFAULT_SETTINGS);
  saveSoundSettings(storage, { volume: 0.25, muted: true });
  assert.deepEqual(loadSoundSettings(storage), { volume: 0.25, muted: true });
  store.set(SOUND_STORAGE_KEY, '{not json');
  assert.deepEqual(loadSoundSettings(storage), DEFAULT_SETTINGS);
  store.set(SOUND_STORAGE_KEY, JSON.stringify({ volume: 7, muted: 'yes' }));
  assert.deepEqual(loadSoundSettings(storage), { volume: 1, muted: false });
  assert.deepEqual(loadSoundSettings(null), DEFAULT_SETTINGS);
});
