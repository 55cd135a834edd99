import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slerp, turnAngle, extrapolatePose, poseStep, makeMotion, MOTION } from '../js/motion.js';

const near = (a, b, eps = 1e-9) => {
  if (Array.isArray(a) || ArrayBuffer.isView(a)) a.forEach((x, i) => near(x, b[i], eps));
  else assert.ok(Math.abs(a - b) < eps, `${a} != ${b}`);
};
// [w, x, y, z] of a turn by deg about a unit axis
const quat = (axis, deg) => {
  const h = (deg * Math.PI) / 360;
  return [Math.cos(h), ...axis.map((x) => x * Math.sin(h))];
};
const AXIS = [0.6, 0, 0.8];
// a part moving at a constant velocity and turning at a constant rate: its pose at step k
const poseAt = (k) => [1 + 0.3 * k, -2 + 0.1 * k, 5 - 0.05 * k, ...quat(AXIS, 10 + 4 * k)];

test('slerp: the ends, the middle, beyond the end at the same rate, the short way round', () => {
  const a = quat(AXIS, 10), b = quat(AXIS, 30);
  near(slerp(a, b, 0), a);
  near(slerp(a, b, 1), b);
  near(slerp(a, b, 0.5), quat(AXIS, 20));
  near(slerp(a, b, 1.5), quat(AXIS, 40), 1e-12);
  near(slerp(a, b, 2), quat(AXIS, 50), 1e-12);
  // -b is the same turn: still 10 -> 30 -> 40
  near(slerp(a, b.map((x) => -x), 1.5), quat(AXIS, 40), 1e-12);
  // equal: nothing to turn
  near(slerp(a, a, 1.7), a);
  near(turnAngle(a, b), (20 * Math.PI) / 180, 1e-12);
});

test('extrapolatePose: constant velocity and turn rate are reproduced exactly', () => {
  for (const s of [0, 0.25, 0.5, 1]) near(extrapolatePose(poseAt(3), poseAt(4), s), poseAt(4 + s), 1e-12);
  const step = poseStep(poseAt(0), poseAt(1));
  near(step.move, Math.hypot(0.3, 0.1, 0.05), 1e-12);
  near(step.turn, (4 * Math.PI) / 180, 1e-12);
});

test('stream: between frames each pose is carried on by the time since the newest frame', () => {
  const m = makeMotion({ periodMs: 50 });
  assert.equal(m.sample(0), null, 'nothing before the first frame');
  m.push(10, 1000, [poseAt(0)], [8]);
  near(m.sample(1030).poses[0], poseAt(0));   // one frame: drawn as it is
  assert.equal(m.sample(1030).moving, false);
  m.push(11, 1050, [poseAt(1)], [8.5]);
  assert.equal(m.moving, true);
  for (const dt of [0, 10, 25, 40]) {
    const s = m.sample(1050 + dt);
    near(s.poses[0], poseAt(1 + dt / 50), 1e-12);
    near(s.scalars[0], 8.5 + (0.5 * dt) / 50, 1e-12);
    near(s.ahead, dt / 50, 1e-12);
  }
  // the next frame where it was predicted: no jump
  m.push(12, 1100, [poseAt(2)], [9]);
  near(m.sample(1100).poses[0], poseAt(2));
});

test('stream: at most one period ahead', () => {
  const m = makeMotion({ periodMs: 50 });
  m.push(0, 0, [poseAt(0)]);
  m.push(1, 50, [poseAt(1)]);
  near(m.sample(100).poses[0], poseAt(2), 1e-12);
  near(m.sample(400).poses[0], poseAt(2), 1e-12, 'a late frame: held one period on');
  assert.equal(m.ahead(400), MOTION.aheadCap);
  // and a sample before the arrival (clock skew) is the frame itself
  near(m.sample(40).poses[0], poseAt(1), 1e-12);
});

test('stream: a seq gap spreads the change over the frames missed', () => {
  const m = makeMotion({ periodMs: 50 });
  // frames 5 and 7 (6 was dropped): per period, half of what changed between them
  m.push(5, 0, [poseAt(0)]);
  m.push(7, 100, [poseAt(2)]);
  near(m.sample(125).poses[0], poseAt(2.5), 1e-12);
  near(m.sample(150).poses[0], poseAt(3), 1e-12);
  // a replay at 4x shows every 4th frame once a period: a gap of 4 is one period
  const r = makeMotion({ periodMs: 50, stepsPerPeriod: 4 });
  r.push(100, 0, [poseAt(0)]);
  r.push(104, 50, [poseAt(1)]);
  near(r.sample(75).poses[0], poseAt(1.5), 1e-12);
  // too far apart (a seek, a stall), or seq going back (a new session): held as they are
  for (const [a, b] of [[0, 1 + MOTION.maxGap], [9, 3], [4, 4]]) {
    const g = makeMotion({ periodMs: 50 });
    g.push(a, 0, [poseAt(0)], [1]);
    g.push(b, 50, [poseAt(1)], [2]);
    const s = g.sample(75);
    near(s.poses[0], poseAt(1));
    near(s.scalars[0], 2);
    assert.equal(s.moving, false);
  }
});

test('stream: a restart or teleport snaps instead of blending', () => {
  const m = makeMotion({ periodMs: 50 });
  // the clam put back home, 20 m away, while the boom moved on as before
  const far = [30, 0, 0, 1, 0, 0, 0];
  m.push(0, 0, [poseAt(0), [0, 0, 0, 1, 0, 0, 0]], [3]);
  m.push(1, 50, [poseAt(1), far], [3 + MOTION.jumpM * 2]);
  const s = m.sample(75);
  assert.deepEqual(s.poses[1], far, 'the jump is drawn where it landed');
  near(s.poses[0], poseAt(1.5), 1e-12, 'the rest moves on');
  assert.equal(s.scalars[0], 3 + MOTION.jumpM * 2, 'a rope length that jumped is held');
  // a turn faster than a machine turns: held too
  const t = makeMotion({ periodMs: 50 });
  t.push(0, 0, [[0, 0, 0, ...quat([0, 0, 1], 0)]]);
  t.push(1, 50, [[0, 0, 0, ...quat([0, 0, 1], MOTION.turnDeg + 10)]]);
  near(t.sample(75).poses[0].slice(3), quat([0, 0, 1], MOTION.turnDeg + 10), 1e-12);
  // reset (a hello, the task restarted): the next frame alone, drawn as it is
  m.reset();
  assert.equal(m.sample(80), null);
  m.push(2, 100, [poseAt(5), far], [1]);
  near(m.sample(125).poses[0], poseAt(5));
  // a different number of poses (a load more): nothing to carry on
  m.push(3, 150, [poseAt(6)], [1]);
  near(m.sample(175).poses[0], poseAt(6));
  assert.equal(m.sample(175).moving, false);
});

test('stream: at rest nothing moves, so nothing needs drawing between frames', () => {
  const m = makeMotion({ periodMs: 50 });
  m.push(0, 0, [poseAt(1)], [4]);
  m.push(1, 50, [poseAt(1)], [4]);
  assert.equal(m.moving, false);
  const s = m.sample(70);
  assert.equal(s.moving, false);
  assert.equal(s.ahead, 0);
  near(s.poses[0], poseAt(1));
  // a change too small to see (a settling sway) is not motion either
  const tiny = poseAt(1).slice();
  tiny[0] += MOTION.restM / 2;
  m.push(2, 100, [tiny], [4 + MOTION.restM / 2]);
  assert.equal(m.moving, false);
  const more = tiny.slice();
  more[0] += MOTION.restM * 2;
  m.push(3, 150, [more], [4]);
  assert.equal(m.moving, true);
  // configure: a period granted at 60 Hz
  m.configure({ periodMs: 17.5 });
  assert.equal(m.periodMs, 17.5);
});
