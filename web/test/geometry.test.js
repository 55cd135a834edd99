import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  craneFrames, tipPosition, transformPoint, clamShape, theta2FromOpening, pose, cableSlack,
  cableSag, cableCurve, sagDirection, distance, workArea, quatToThree, rotateByQuat, clamAxesFromQuat, tiltMatrix, mul,
} from '../js/geometry.js';
import { parseServerMessage } from '../js/protocol.js';

const fixture = (name) => readFileSync(new URL(`fixtures/${name}.json`, import.meta.url), 'utf8');
const hello = parseServerMessage(fixture('hello')).msg;
const { machine, scene } = hello;
const crane = machine.crane, clam = machine.clam;

const near = (a, b, eps = 1e-9) => {
  if (Array.isArray(a)) a.forEach((x, i) => near(x, b[i], eps));
  else assert.ok(Math.abs(a - b) < eps, `${a} != ${b}`);
};

test('tip: closed form against the D-H chain, and known poses', () => {
  for (const [s, b, d] of [[0, 0, 10], [37, 12, 15.5], [200, 50, 24.4], [-90, 3, 9.7]]) {
    const T3 = craneFrames(crane, s, b, d)[2];
    near(transformPoint(T3, [0, 0, 0]), tipPosition(crane, s, b, d), 1e-9);
  }
  near(tipPosition(crane, 0, 0, 10), [9, 0, 2.4]);         // level boom: d3 - a1 ahead, at d1
  near(tipPosition(crane, 0, 90, 10), [-1, 0, 12.4], 1e-9); // vertical boom over the pivot
  near(tipPosition(crane, 90, 0, 10), [0, 9, 2.4], 1e-9);   // positive swing: counter-clockwise
});

test('frame 1 carries the cab: y up, x along the boom, z along the pivot axis', () => {
  const T1 = craneFrames(crane, 0, 30, 12)[0];
  near(transformPoint(T1, crane.links.swing_cab.com_m), [-0.5, 0, 1.2], 1e-12);
  // the boom's base box centre lies on the boom line, 4.85 m from the pivot
  const T2 = craneFrames(crane, 0, 30, 12)[1];
  const c = transformPoint(T2, crane.links.boom_base.com_m);
  near(c, [-1 + 4.85 * Math.cos(Math.PI / 6), 0, 2.4 + 4.85 * Math.sin(Math.PI / 6)], 1e-9);
});

test('clam kite: l1 sin th1 = l2 sin th2, lips meet on the axis when closed', () => {
  for (const th2 of [20, 40, 65]) {
    const k = clamShape(clam, th2);
    near(clam.link1_length_m * Math.sin(k.theta1), clam.link2_length_m * Math.sin(k.theta2), 1e-12);
    near(k.c[0], 0);
    // B is l2 from C
    near(Math.hypot(k.b[0] - k.c[0], k.b[1] - k.c[1]), clam.link2_length_m, 1e-12);
    // jaw gap 2 L sin(th_closed - th2), as server/core/clam.cc
    near(2 * k.lip[0], 2 * clam.lip_length_m * Math.sin((65 - th2) * Math.PI / 180), 1e-12);
  }
  const closed = clamShape(clam, 65);
  near(closed.lip, [0, closed.c[1] - clam.lip_length_m], 1e-12);
  // more open (smaller theta2) swings the lip outwards
  assert.ok(clamShape(clam, 20).lip[0] > clamShape(clam, 40).lip[0]);
  near(theta2FromOpening(clam, 50), 40);
});

test('pose from Table 4.1 alone agrees with the extended points', () => {
  const display = [30, 20, 14, 6, 40, 6, 8.5, 0];
  const bare = pose(machine, { display });
  const tip = tipPosition(crane, 30, 20, 14);
  near(bare.tip, tip);
  near(bare.a, [tip[0], tip[1], tip[2] - 6]);
  near(bare.theta2, 45);
  near(bare.c[2], bare.a[2] - bare.shape.span, 1e-12);
  const rich = pose(machine, { display, tip_m: tip, point_a_m: bare.a, point_c_m: bare.c, theta2_deg: 45,
    point_b_m: [bare.a[0] + bare.shape.b[0] * bare.heading[0], bare.a[1] + bare.shape.b[0] * bare.heading[1], bare.a[2] + bare.shape.b[1]] });
  near(rich.u, bare.u, 1e-9);
  near(rich.w, [0, 0, 1], 1e-12);
});

test('cable slack: length minus the straight distance, never negative', () => {
  assert.equal(cableSlack([0, 0, 10], [0, 0, 2], 9), 1);
  assert.equal(cableSlack([0, 0, 10], [0, 0, 2], 7.99), 0);  // stretched: taut
  assert.equal(cableSlack([0, 0, 0], [3, 4, 0], 5), 0);
});

test('sag is proportional to slack and capped at half the length', () => {
  assert.equal(cableSag(0, 10), 0);
  assert.equal(cableSag(1, 10), 1);
  assert.equal(cableSag(2, 10), 2);
  assert.equal(cableSag(2, 10, 0.5), 1);
  assert.equal(cableSag(30, 10), 5);
  assert.equal(cableSag(-1, 10), 0);
});

test('taut cable is drawn straight, slack cable bows sideways by the sag', () => {
  const top = [10, 0, 8], bottom = [10, 0, 0];
  const taut = cableCurve(top, bottom, 8, [1, 0, 0], { segments: 8 });
  assert.equal(taut.sag, 0);
  for (const p of taut.points) near([p[0], p[1]], [10, 0], 1e-12);
  near(taut.points[0], top);
  near(taut.points[8], bottom);

  const slack = cableCurve(top, bottom, 9.5, [1, 0, 0], { segments: 8 });
  near(slack.slack, 1.5);
  near(slack.sag, 1.5);
  near(slack.points[0], top);
  near(slack.points[8], bottom);
  // the middle of the curve is `sag` off the chord, towards the side given
  near(slack.points[4], [11.5, 0, 4], 1e-12);
  const more = cableCurve(top, bottom, 11, [1, 0, 0], { segments: 8 });
  near(more.points[4][0] - 10, 2 * (slack.points[4][0] - 10), 1e-12);
  // a drawn slack cable is longer than the chord
  let len = 0;
  for (let i = 1; i < slack.points.length; i++) len += distance(slack.points[i - 1], slack.points[i]);
  assert.ok(len > 8);
});

test('sag direction is perpendicular to the chord, with fallbacks', () => {
  near(sagDirection([0, 0, 1], [0, 0, 0], [0, 2, 0]), [0, 1, 0]);
  near(sagDirection([0, 0, 1], [0, 0, 0], [0, 0, 1]), [1, 0, 0]);  // side along the chord: any perpendicular
  near(sagDirection([0, 0, 0], [4, 0, 0], undefined), [0, 0, -1]); // a horizontal chord sags down
  const d = sagDirection([0, 0, 5], [3, 0, 0], [1, 1, 0]);
  near(d[0] * 3 + d[2] * -5, 0, 1e-12);
});

test('work area covers the reach and the dam but not the whole lake', () => {
  const a = workArea(machine, scene);
  assert.ok(a.max[0] >= 25.4 && a.min[0] <= -25.4);
  assert.ok(a.max[1] >= 40);  // the deck is 80 m long
  assert.ok(a.max[0] < 44);   // the reservoir (to x = 79) is left out
  assert.ok(a.zMin <= -23);
});

// [w, x, y, z] of a rotation by angle about a unit axis
const quat = (axis, deg) => {
  const h = (deg * Math.PI) / 360;
  return [Math.cos(h), ...axis.map((x) => x * Math.sin(h))];
};

test('quaternions: [w, x, y, z] from the server to three.js (x, y, z, w), and rotations', () => {
  assert.deepEqual(quatToThree([0.5, 0.1, 0.2, 0.3]), [0.1, 0.2, 0.3, 0.5]);
  near(rotateByQuat([1, 0, 0, 0], [1, 2, 3]), [1, 2, 3]);
  near(rotateByQuat(quat([0, 0, 1], 90), [1, 0, 0]), [0, 1, 0], 1e-12);   // yaw: x -> y
  near(rotateByQuat(quat([0, 1, 0], 90), [0, 0, 1]), [1, 0, 0], 1e-12);   // pitch: z -> x
  near(rotateByQuat(quat([1, 0, 0], 180), [0, 1, 0]), [0, -1, 0], 1e-12);
  // composition agrees with rotating twice
  const a = quat([0, 0, 1], 30), b = quat([1, 0, 0], 50);
  const ab = [a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
    a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
    a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
    a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]];
  near(rotateByQuat(ab, [0.3, -1, 2]), rotateByQuat(a, rotateByQuat(b, [0.3, -1, 2])), 1e-12);
});

test('the clam hangs along its ropes: axes from clam_orientation', () => {
  // identity: x across the jaws along the base x, z up
  const id = clamAxesFromQuat([1, 0, 0, 0]);
  near(id.u, [1, 0, 0]);
  near(id.w, [0, 0, 1]);
  // swung 10 deg out along the boom (about the base y axis): the axis leans, u stays perpendicular
  const q = quat([0, 1, 0], 10);
  const f = { display: [0, 20, 14, 6, 40, 6, 8.5, 0], clam_orientation: q };
  const p = pose(machine, f);
  near(p.w, [Math.sin(10 * Math.PI / 180), 0, Math.cos(10 * Math.PI / 180)], 1e-12);
  near(p.u[0] * p.w[0] + p.u[1] * p.w[1] + p.u[2] * p.w[2], 0, 1e-12);
  // without it, the points decide (a 2001-style frame hangs straight down)
  near(pose(machine, { display: f.display }).w, [0, 0, 1], 1e-12);
});

test('tilt: a right-hand turn about the line the server names; upright without one', () => {
  const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  assert.deepEqual(tiltMatrix(null, 5), identity);
  assert.deepEqual(tiltMatrix({ point_m: [0, 3.15, 0], direction: [-1, 0, 0] }, 0), identity);
  // over the left pads (y = +3.15; direction z x n = -x): the swing axis rises and moves out
  const left = { point_m: [0, 3.15, 0], direction: [-1, 0, 0] };
  const a = 10 * Math.PI / 180;
  const T = tiltMatrix(left, 10);
  near(transformPoint(T, [0, 0, 0]), [0, 3.15 - 3.15 * Math.cos(a), 3.15 * Math.sin(a)]);
  near(transformPoint(T, [7, 3.15, 0]), [7, 3.15, 0], 1e-12);   // a point on the line stays
  // a tip out past the side goes down
  const tip = transformPoint(T, [0, 10, 4]);
  assert.ok(tip[2] < 4 && tip[1] > 3.15);
  near(distance(tip, [0, 3.15, 0]), distance([0, 10, 4], [0, 3.15, 0]), 1e-12);
  // over the front pads (x = +2.6, direction z x x = +y): the rear lifts
  const front = tiltMatrix({ point_m: [2.6, 0, 0], direction: [0, 1, 0] }, 5);
  assert.ok(transformPoint(front, [-2.6, 0, 0])[2] > 0);
  // turning back by the same angle is upright again
  near(mul(tiltMatrix(left, -10), T), identity, 1e-12);
});
