// The machine's sound, synthesized with WebAudio (docs/web-client.md "Sound"; no recorded
// samples):
// an engine note that rises with hydraulic demand, the pump's whine with flow, a relief
// valve's squeal, the winch drums, and one-shot splashes, impacts and rope snaps. The
// levels come from sound-model.js; this file only builds and drives the audio graph.
// Browsers allow sound only after a user gesture: the graph is made on the first key or
// pointer press.

import { soundTargets, oneShots, loadSoundSettings, saveSoundSettings } from './sound-model.js';

const SMOOTH_S = { engine: 0.35, level: 0.08 };   // how fast levels follow the frames
const PEAK = { engine: 0.5, whine: 0.12, relief: 0.08, drum: 0.25 };

function noiseBuffer(ctx, seconds = 2) {
  const b = ctx.createBuffer(1, Math.round(ctx.sampleRate * seconds), ctx.sampleRate);
  const d = b.getChannelData(0);
  let seed = 12345;   // a fixed LCG: the same noise every time, no Math.random in audio
  for (let i = 0; i < d.length; i += 1) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    d[i] = seed / 2147483648 - 1;
  }
  return b;
}

function osc(ctx, type, hz) {
  const o = ctx.createOscillator();
  o.type = type;
  o.frequency.value = hz;
  o.start();
  return o;
}

function gain(ctx, value = 0) {
  const g = ctx.createGain();
  g.gain.value = value;
  return g;
}

function filter(ctx, type, hz, q = 1) {
  const f = ctx.createBiquadFilter();
  f.type = type;
  f.frequency.value = hz;
  f.Q.value = q;
  return f;
}

// The continuous voices: engine, pump whine, relief squeal, two drums.
function buildVoices(ctx, out, noise) {
  const engine = { saw: osc(ctx, 'sawtooth', 40), sub: osc(ctx, 'sine', 20), lp: filter(ctx, 'lowpass', 200, 0.8),
    g: gain(ctx) };
  engine.saw.connect(engine.lp);
  engine.sub.connect(engine.lp);
  engine.lp.connect(engine.g).connect(out);

  const whine = { o: osc(ctx, 'triangle', 150), bp: filter(ctx, 'bandpass', 150, 4), g: gain(ctx) };
  whine.o.connect(whine.bp).connect(whine.g).connect(out);

  // a relief valve squeals near 2.6 kHz with a fast flutter
  const relief = { o: osc(ctx, 'square', 2600), g: gain(ctx), lfo: osc(ctx, 'sine', 9), depth: gain(ctx, 40),
    bp: filter(ctx, 'bandpass', 2600, 8) };
  relief.lfo.connect(relief.depth).connect(relief.o.frequency);
  relief.o.connect(relief.bp).connect(relief.g).connect(out);

  const drums = [0, 1].map(() => {
    const src = ctx.createBufferSource();
    src.buffer = noise;
    src.loop = true;
    src.start();
    const d = { src, bp: filter(ctx, 'bandpass', 70, 3), g: gain(ctx) };
    src.connect(d.bp).connect(d.g).connect(out);
    return d;
  });
  return { engine, whine, relief, drums };
}

function follow(param, value, now, tau) {
  param.setTargetAtTime(value, now, tau);
}

// One short sound: filtered noise with a fast attack and a decay.
function playShot(ctx, out, noise, shot) {
  const shape = {
    splash: { type: 'lowpass', hz: 1800, q: 0.7, decay: 0.7, level: 0.5 },
    impact: { type: 'lowpass', hz: 300, q: 1.5, decay: 0.25, level: 0.9 },
    snap: { type: 'highpass', hz: 1500, q: 2, decay: 0.12, level: 0.6 },
  }[shot.kind];
  if (!shape) return;
  const src = ctx.createBufferSource();
  src.buffer = noise;
  const f = filter(ctx, shape.type, shape.hz, shape.q);
  const g = gain(ctx);
  const t = ctx.currentTime;
  g.gain.setValueAtTime(0, t);
  g.gain.linearRampToValueAtTime(shape.level * shot.strength, t + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, t + shape.decay);
  src.connect(f).connect(g).connect(out);
  src.start(t);
  src.stop(t + shape.decay + 0.05);
}

// doc: the page; storage: localStorage. Returns {frame(f, volts), hello(machine), settings,
// setVolume, setMuted, bandEnergy(loHz, hiHz), started}.
// The sound's state (the settings, the audio graph once made, the machine's figures) lives in
// one object (s) that the functions below share.
export function createSound({ doc, storage }) {
  const s = {
    storage,
    settings: loadSoundSettings(storage),
    ctx: null, master: null, analyser: null, voices: null, noise: null,
    reliefMPa: null,
    clamWeightN: 0,
    prev: null,
  };
  const start = () => startAudio(s);
  for (const type of ['keydown', 'pointerdown']) doc.addEventListener(type, start, { capture: true });
  return {
    get started() { return s.ctx !== null && s.ctx.state === 'running'; },
    get settings() { return { ...s.settings }; },
    hello(machine) {
      s.reliefMPa = machine?.hydraulics?.relief_MPa ?? null;
      s.clamWeightN = (machine?.clam?.mass_kg ?? 0) * 9.81;
      s.prev = null;
    },
    // every frame: the voices follow the machine; one-shots fire
    frame(f, volts) {
      const found = oneShots(f, s.prev, s.clamWeightN);
      s.prev = f;
      if (!s.ctx || !s.voices) return;
      followVoices(s.voices, soundTargets(f, volts, s.reliefMPa), s.ctx.currentTime);
      for (const shot of found) {
        playShot(s.ctx, s.master, s.noise, shot);
      }
    },
    setVolume(volume) {
      s.settings = { ...s.settings, volume: Math.min(1, Math.max(0, Number(volume) || 0)) };
      saveSoundSettings(storage, s.settings);
      applyVolume(s);
    },
    setMuted(muted) {
      s.settings = { ...s.settings, muted: Boolean(muted) };
      saveSoundSettings(storage, s.settings);
      applyVolume(s);
    },
    // mean power (linear) of what is being played between loHz and hiHz, for the tests;
    // 0 before the first gesture
    bandEnergy: (loHz, hiHz) => bandEnergy(s, loHz, hiHz),
  };
}

function applyVolume(s) {
  if (s.master) follow(s.master.gain, s.settings.muted ? 0 : s.settings.volume, s.ctx.currentTime, 0.02);
}

// the first gesture: make the graph (the only moment browsers allow it to sound)
function startAudio(s) {
  if (s.ctx) return void s.ctx.resume();
  const Ctx = globalThis.AudioContext ?? globalThis.webkitAudioContext;
  if (!Ctx) return;
  const ctx = new Ctx();
  s.ctx = ctx;
  s.master = gain(ctx, 0);
  s.analyser = ctx.createAnalyser();
  s.analyser.fftSize = 4096;
  s.analyser.smoothingTimeConstant = 0;   // each reading is the sound now
  s.master.connect(s.analyser);
  s.analyser.connect(ctx.destination);
  s.noise = noiseBuffer(ctx);
  s.voices = buildVoices(ctx, s.master, s.noise);
  applyVolume(s);
  ctx.resume();
}

// the voices glide to the levels and pitches soundTargets asks for (t), from `now` [s]
function followVoices(v, t, now) {
  follow(v.engine.saw.frequency, t.engineHz, now, SMOOTH_S.engine);
  follow(v.engine.sub.frequency, t.engineHz / 2, now, SMOOTH_S.engine);
  follow(v.engine.lp.frequency, t.engineHz * 5, now, SMOOTH_S.engine);
  follow(v.engine.g.gain, PEAK.engine * t.engine, now, SMOOTH_S.engine);
  follow(v.whine.o.frequency, t.pumpHz, now, SMOOTH_S.engine);
  follow(v.whine.bp.frequency, t.pumpHz, now, SMOOTH_S.engine);
  follow(v.whine.g.gain, PEAK.whine * t.whine, now, SMOOTH_S.level);
  follow(v.relief.g.gain, PEAK.relief * t.relief, now, SMOOTH_S.level);
  t.drums.forEach((level, i) => {
    follow(v.drums[i].g.gain, PEAK.drum * level, now, SMOOTH_S.level);
    follow(v.drums[i].bp.frequency, 50 + 90 * level, now, SMOOTH_S.level);
  });
}

function bandEnergy(s, loHz, hiHz) {
  const { analyser } = s;
  if (!analyser) return 0;
  const d = new Float32Array(analyser.frequencyBinCount);
  analyser.getFloatFrequencyData(d);
  const hzPerBin = s.ctx.sampleRate / analyser.fftSize;
  let sum = 0;
  let n = 0;
  for (let i = Math.max(1, Math.floor(loHz / hzPerBin)); i <= Math.ceil(hiHz / hzPerBin) && i < d.length; i += 1) {
    sum += Number.isFinite(d[i]) ? 10 ** (d[i] / 10) : 0;
    n += 1;
  }
  return n ? sum / n : 0;
}
