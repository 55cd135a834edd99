// Smooth motion between server frames: the page draws at the display's rate, and between
// two frames each pose is carried on from the last two frames (linear in position, slerp
// in rotation), by the time since the newest frame arrived over the frame period, at most
// one period ahead. A pose that jumped further than a machine moves in a frame (a restart,
// a take-over, a load put back) is drawn where it is, not blended. Pure math, no three.js.

export const MOTION = Object.freeze({
  aheadCap: 1,          // at most one frame period past the newest frame
  jumpM: 2,             // a part moving further than this in one frame period teleported
  turnDeg: 60,          // ...or turning more than this
  maxGap: 4,            // frames further apart than this many periods: nothing to carry on
  // below these a frame period's change is too small to see (1 mm is a tenth of a pixel
  // from the Focus view's camera): nothing to draw between frames
  restM: 1e-3,
  restRad: 1e-3,
});

// ---- quaternions [w, x, y, z] ------------------------------------------------------------

// Spherical interpolation from a (t = 0) to b (t = 1); any t, so t > 1 carries the turn
// on at the same rate. The shorter way round; nlerp where the angle is tiny.
export function slerp(a, b, t, out = [0, 0, 0, 0]) {
  let bw = b[0], bx = b[1], by = b[2], bz = b[3];
  let cos = a[0] * bw + a[1] * bx + a[2] * by + a[3] * bz;
  if (cos < 0) { cos = -cos; bw = -bw; bx = -bx; by = -by; bz = -bz; }
  let ka, kb;
  if (cos > 1 - 1e-9) {
    ka = 1 - t;
    kb = t;
  } else {
    const theta = Math.acos(Math.min(1, cos)), sin = Math.sin(theta);
    ka = Math.sin((1 - t) * theta) / sin;
    kb = Math.sin(t * theta) / sin;
  }
  const w = ka * a[0] + kb * bw, x = ka * a[1] + kb * bx, y = ka * a[2] + kb * by, z = ka * a[3] + kb * bz;
  const n = Math.hypot(w, x, y, z) || 1;
  out[0] = w / n; out[1] = x / n; out[2] = y / n; out[3] = z / n;
  return out;
}

// The angle [rad] between two orientations.
export function turnAngle(a, b) {
  const d = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
  return 2 * Math.acos(Math.min(1, d));
}

// ---- poses [x, y, z, qw, qx, qy, qz] -----------------------------------------------------

const qa = [0, 0, 0, 0], qb = [0, 0, 0, 0], qo = [0, 0, 0, 0];

// The pose `s` steps past `last`, where one step is last - prev: p = last + s (last - prev),
// q = slerp(prev, last, 1 + s). Written into out.
export function extrapolatePose(prev, last, s, out = new Array(7)) {
  for (let k = 0; k < 3; k++) out[k] = last[k] + s * (last[k] - prev[k]);
  for (let k = 0; k < 4; k++) { qa[k] = prev[3 + k]; qb[k] = last[3 + k]; }
  slerp(qa, qb, 1 + s, qo);
  for (let k = 0; k < 4; k++) out[3 + k] = qo[k];
  return out;
}

// What one frame period did to a pose: its move [m] and turn [rad].
export function poseStep(prev, last) {
  for (let k = 0; k < 4; k++) { qa[k] = prev[3 + k]; qb[k] = last[3 + k]; }
  return { move: Math.hypot(last[0] - prev[0], last[1] - prev[1], last[2] - prev[2]), turn: turnAngle(qa, qb) };
}

// ---- the stream ---------------------------------------------------------------------------

// Keeps the last two frames' poses (and scalars, e.g. the ropes' lengths) and samples them
// at any time. periodMs: the time between frames; stepsPerPeriod: how far seq advances in
// one period (1 live; a replay at 4x shows every 4th frame).
export function makeMotion({ periodMs = 50, stepsPerPeriod = 1, limits = MOTION } = {}) {
  const m = {
    periodMs, stepsPerPeriod, limits,
    prev: null, last: null,   // {seq, arrivalMs, poses: [[7]], scalars: [n]}
    rate: null,               // per pose: steps per period to carry it on, 0 to hold it
    scalarRate: null,         // the same for the scalars
    moving: false,
    sample: { poses: [], scalars: [], ahead: 0, moving: false },
  };
  return {
    // a fresh start (hello, restart): the next frame is drawn as it is
    reset() {
      m.prev = null;
      m.last = null;
      m.rate = null;
      m.moving = false;
    },
    configure(opts) {
      if (opts.periodMs > 0) m.periodMs = opts.periodMs;
      if (opts.stepsPerPeriod > 0) m.stepsPerPeriod = opts.stepsPerPeriod;
      compare(m);
    },
    get periodMs() { return m.periodMs; },
    // a frame: its seq, when it arrived [ms], its poses and scalars (kept, not copied)
    push(seq, arrivalMs, poses, scalars = []) {
      m.prev = m.last;
      m.last = { seq, arrivalMs, poses, scalars };
      compare(m);
    },
    // the last two frames differ: the picture changes between frames
    get moving() { return m.moving; },
    get newest() { return m.last; },
    // How far past the newest frame `now` is, in periods, capped.
    ahead: (nowMs) => ahead(m, nowMs),
    // The poses to draw at nowMs (one object, rewritten by each call).
    sample: (nowMs) => sampleAt(m, nowMs),
  };
}

// How each pose and scalar moved between the last two frames: the rate to carry it on at,
// 0 where it jumped or the frames cannot be compared.
function compare(m) {
  const { prev, last, limits } = m;
  m.rate = null;
  m.scalarRate = null;
  m.moving = false;
  if (!prev || !last) return;
  const gap = (last.seq - prev.seq) / m.stepsPerPeriod;     // periods between the two frames
  const usable = gap > 0 && gap <= limits.maxGap && prev.poses.length === last.poses.length
    && prev.scalars.length === last.scalars.length;
  if (!usable) return;
  m.rate = last.poses.map((p, i) => {
    const { move, turn } = poseStep(prev.poses[i], p);
    if (move > limits.restM || turn > limits.restRad) m.moving = true;
    // a jump no machine makes in the time between the frames: draw it where it is
    if (move > limits.jumpM * gap || turn > limits.turnDeg * (Math.PI / 180) * gap) return 0;
    return 1 / gap;
  });
  m.scalarRate = last.scalars.map((x, i) => {
    const d = Math.abs(x - prev.scalars[i]);
    if (d > limits.restM) m.moving = true;
    return d > limits.jumpM * gap ? 0 : 1 / gap;
  });
}

function ahead(m, nowMs) {
  if (!m.last) return 0;
  return Math.min(m.limits.aheadCap, Math.max(0, (nowMs - m.last.arrivalMs) / m.periodMs));
}

function sampleAt(m, nowMs) {
  const { prev, last, rate, scalarRate, moving, sample } = m;
  if (!last) return null;
  const s = ahead(m, nowMs);
  const n = last.poses.length;
  sample.poses.length = n;
  for (let i = 0; i < n; i++) {
    const out = sample.poses[i] ?? (sample.poses[i] = new Array(7));
    const r = rate ? rate[i] : 0;
    if (r > 0 && moving) extrapolatePose(prev.poses[i], last.poses[i], s * r, out);
    else for (let k = 0; k < 7; k++) out[k] = last.poses[i][k];
  }
  sample.scalars.length = last.scalars.length;
  for (let i = 0; i < last.scalars.length; i++) {
    const x = last.scalars[i];
    const r = scalarRate ? scalarRate[i] : 0;
    sample.scalars[i] = r > 0 ? x + s * r * (x - prev.scalars[i]) : x;
  }
  sample.ahead = moving && rate ? s : 0;
  sample.moving = moving && rate !== null;
  return sample;
}
