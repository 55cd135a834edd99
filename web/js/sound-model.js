// What the machine sounds like, from the frames the server sends (docs/web-client.md
// "Sound"): pure functions from a frame (and the one before it) to the
// levels and pitches the synthesizer in sound.js follows. No WebAudio here, so the node
// tests can check every rule.

import { VOLT_LIMIT } from './protocol.js';

// A diesel of this class idles near 750 rpm and runs its pumps up to about 2100 rpm under
// load; a six-cylinder four-stroke fires three times a revolution, so the engine note's
// fundamental is rpm / 60 * 3 (37.5-105 Hz). The gear pump's whine is its tooth-meshing
// frequency, rpm / 60 * teeth.
export const ENGINE = { idleRpm: 750, maxRpm: 2100, firingsPerRev: 3, pumpTeeth: 11 };

// Motion that makes the machine loud at full stick: joint speeds and rope speeds at which
// the pumps and drums are at full voice (presentation scales, not physics).
export const FULL_VOICE = { swingDegS: 15, boomDegS: 3, telescopeMS: 0.3, ropeMS: 0.6 };

// A line within this fraction of its channel's relief setting squeals; fully at the setting.
export const RELIEF_ONSET = 0.93;
// A rope that hung slack (the server's loop, display.flags.slack_m) and is taut this frame
// pulling more than this fraction of the clam's weight snaps taut.
export const ROPE = { tautFraction: 0.3 };
// The clam entering the water: the submerged fraction crossing this.
export const SPLASH_AT = 0.02;

const clamp01 = (x) => Math.min(1, Math.max(0, Number.isFinite(x) ? x : 0));

// Hydraulic demand 0..1 from the five control voltages (-5..+5 V): two levers at full
// stroke load the engine fully.
export function demand(volts) {
  if (!Array.isArray(volts)) return 0;
  return clamp01(volts.reduce((s, v) => s + Math.abs(Number(v) || 0), 0) / (2 * VOLT_LIMIT));
}

export function engineRpm(volts) {
  return ENGINE.idleRpm + (ENGINE.maxRpm - ENGINE.idleRpm) * demand(volts);
}

// Flow 0..1: how fast the actuators move, from the frame's joint and rope speeds.
export function flow(f) {
  const jv = f?.joint_velocity ?? [0, 0, 0];
  const rates = f?.cable_rate_m_s ?? [0, 0];
  const parts = [Math.abs(jv[0]) / FULL_VOICE.swingDegS, Math.abs(jv[1]) / FULL_VOICE.boomDegS,
    Math.abs(jv[2]) / FULL_VOICE.telescopeMS,
    ...rates.map((r) => Math.abs(r) / FULL_VOICE.ropeMS)];
  return clamp01(Math.max(0, ...parts.map(clamp01)));
}

// 0..1: how hard a relief valve blows, the worst line against its channel's setting
// (pressure_MPa holds two lines per channel, ControlSignal order).
export function relief(f, reliefMPa) {
  const p = f?.pressure_MPa;
  if (!Array.isArray(p) || !Array.isArray(reliefMPa)) return 0;
  let worst = 0;
  for (let i = 0; i < reliefMPa.length; i += 1) {
    for (const line of [p[2 * i], p[2 * i + 1]]) {
      const ratio = line / reliefMPa[i];
      worst = Math.max(worst, clamp01((ratio - RELIEF_ONSET) / (1 - RELIEF_ONSET)));
    }
  }
  return worst;
}

// Each winch drum 0..1 from its rope's speed.
export function drums(f) {
  return (f?.cable_rate_m_s ?? [0, 0]).map((r) => clamp01(Math.abs(r) / FULL_VOICE.ropeMS));
}

const HITS = ['rack_gate_hits', 'structure_hits', 'load_impacts'];

// The one-shot sounds this frame brings against the previous one: [{kind, strength 0..1}],
// kind 'splash' | 'impact' | 'snap'. clamWeightN scales the pull of a rope snapping taut.
export function oneShots(f, prev, clamWeightN) {
  if (!f || !prev) return [];
  const shots = [];
  if ((prev.clam_submerged ?? 0) < SPLASH_AT && (f.clam_submerged ?? 0) >= SPLASH_AT) {
    shots.push({ kind: 'splash', strength: 1 });
  }
  const hits = HITS.reduce((n, k) => n + Math.max(0, (f.events?.[k] ?? 0) - (prev.events?.[k] ?? 0)), 0);
  if (hits > 0) {
    // louder for harder contacts: 1 kN is a knock, 100 kN a bang
    const force = Math.max(0, ...(f.contacts ?? []).map((c) => c.force_N ?? 0));
    shots.push({ kind: 'impact', strength: clamp01(0.3 + Math.log10(Math.max(force, 1000) / 1000) * 0.35) });
  }
  const weight = clamWeightN > 0 ? clamWeightN : 1;
  for (let i = 0; i < 2; i += 1) {
    const wasSlack = (prev.flags?.slack_m?.[i] ?? 0) > 0;
    const taut = (f.flags?.slack_m?.[i] ?? 0) === 0;
    const now = f.tension_N?.[i] ?? 0;
    if (wasSlack && taut && now > ROPE.tautFraction * weight) {
      shots.push({ kind: 'snap', strength: clamp01(now / (2 * weight)) });
    }
  }
  return shots;
}

// Everything the synthesizer follows for one frame: {engineHz, pumpHz, engine, whine,
// relief, drums: [a, b]} (levels 0..1). volts: the inputs driving the machine (the
// trainee's own, or the watched trainee's on an observer's page).
export function soundTargets(f, volts, reliefMPa) {
  const rpm = engineRpm(volts);
  const d = demand(volts);
  const q = flow(f);
  return {
    engineHz: (rpm / 60) * ENGINE.firingsPerRev,
    pumpHz: (rpm / 60) * ENGINE.pumpTeeth,
    engine: 0.35 + 0.65 * d,   // the engine idles audibly
    whine: q * (0.3 + 0.7 * d),
    relief: relief(f, reliefMPa),
    drums: drums(f),
  };
}

// The listener's settings, stored in localStorage: {volume 0..1, muted}.
export const SOUND_STORAGE_KEY = 'clamsim.sound.v1';
export const DEFAULT_SETTINGS = { volume: 0.6, muted: false };

export function loadSoundSettings(storage) {
  try {
    const v = JSON.parse(storage?.getItem(SOUND_STORAGE_KEY) ?? 'null');
    if (v && typeof v === 'object') {
      return { volume: clamp01(Number(v.volume ?? DEFAULT_SETTINGS.volume)), muted: v.muted === true };
    }
  } catch {
    // unreadable settings: the defaults
  }
  return { ...DEFAULT_SETTINGS };
}

export function saveSoundSettings(storage, s) {
  try {
    storage?.setItem(SOUND_STORAGE_KEY, JSON.stringify({ volume: clamp01(s.volume), muted: Boolean(s.muted) }));
  } catch {
    // private mode or full storage: the setting lasts for this page only
  }
}
