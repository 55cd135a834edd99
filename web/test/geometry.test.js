import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  cableSlack, cableSag, cableCurve, sagDirection, distance, workArea, workFrame, quatToThree, rotateByQuat, posePoint, poseAxis,
  partIndex, tubeIndices, writeTube,
} from '../js/geometry.js';
import { parseServerMessage } from '../js/protocol.js';

const fixture = (name) => readFileSync(new URL(`fixtures/${name}.json`, import.meta.url), 'utf8');
const hello = parseServerMessage(fixture('hello')).msg;
const { machine, scene } = hello;
// read by the hello's display field names, as the page reads it
const display = parseServerMessage(fixture('display'), { displayFields: hello.display_fields }).msg;

const near = (a, b, eps = 1e-9) => {
  if (Array.isArray(a)) a.forEach((x, i) => near(x, b[i], eps));
  else assert.ok(Math.abs(a - b) < eps, `${a} != ${b}`);
};

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

test('poses: points and axes of a part from its position and quaternion', () => {
  const pose = [1, 2, 3, ...quat([0, 0, 1], 90)];
  near(posePoint(pose, [0, 0, 0]), [1, 2, 3], 1e-12);
  near(posePoint(pose, [1, 0, 0]), [1, 3, 3], 1e-12);   // local x is base y
  near(poseAxis(pose, 0), [0, 1, 0], 1e-12);
  near(poseAxis(pose, 1), [-1, 0, 0], 1e-12);
  near(poseAxis(pose, 2), [0, 0, 1], 1e-12);
  const out = [0, 0, 0];
  assert.equal(posePoint(pose, [0, 0, 1], out), out, 'written into out');
  near(out, [1, 2, 4], 1e-12);
});

test('parts: indexed by hello.parts\' names; the fixture\'s poses put the arms\' hinges and the buckets where the frame\'s points are', () => {
  const at = partIndex(hello.parts);
  assert.equal(at.carrier, 0);
  assert.equal(at.shell_left, 8);
  assert.equal(partIndex(null), null);
  const P = (name) => display.parts[at[name]];
  const { link1_length_m: l1, link2_length_m: l2, theta2_closed_deg: tc } = machine.clam;
  // the tip sheave at the fly's origin, A at the clam head's and the arms', C at the shells'
  near(P('fly').slice(0, 3), display.tip_m, 1e-5);
  near(P('clam_head').slice(0, 3), display.point_a_m, 1e-5);
  near(P('arm_left').slice(0, 3), display.point_a_m, 1e-5);
  near(P('shell_right').slice(0, 3), display.point_c_m, 1e-5);
  // hinge B: the end of link 1 (local -z) and the closed-pose B of the bucket, turned open
  const bArm = posePoint(P('arm_right'), [0, 0, -l1]);
  const bShell = posePoint(P('shell_right'), [l2 * Math.sin(tc * Math.PI / 180), 0, l2 * Math.cos(tc * Math.PI / 180)]);
  near(bArm, display.point_b_m, 1e-4);
  near(bShell, display.point_b_m, 1e-4);
  // the left half is the mirror image about the clam's y-z plane
  const u = poseAxis(P('clam_head'), 0);
  const bLeft = posePoint(P('arm_left'), [0, 0, -l1]);
  const a = display.point_a_m;
  const across = (p) => (p[0] - a[0]) * u[0] + (p[1] - a[1]) * u[1] + (p[2] - a[2]) * u[2];
  near(across(bLeft), -across(bArm), 1e-5);
  // the superstructure's x axis is the boom's heading (swing 12.5 deg, on its pads)
  near(poseAxis(P('superstructure'), 0), [Math.cos(12.5 * Math.PI / 180), Math.sin(12.5 * Math.PI / 180), 0], 1e-5);
});

test('tube: one ring per point, normals outward and unit, faces wound outward; rewritten in place', () => {
  const points = [[0, 0, 10], [0.5, 0, 5], [0, 0, 0]];
  const radial = 6, r = 0.05;
  const idx = tubeIndices(points.length, radial);
  assert.equal(idx.length, (points.length - 1) * radial * 6);
  assert.ok(Math.max(...idx) === points.length * radial - 1);
  const pos = new Float32Array(points.length * radial * 3), nor = new Float32Array(pos.length);
  writeTube(points, r, radial, pos, nor);
  const v = (arr, i) => [arr[i * 3], arr[i * 3 + 1], arr[i * 3 + 2]];
  for (let i = 0; i < points.length; i++) {
    for (let j = 0; j < radial; j++) {
      const k = i * radial + j;
      near(distance(v(pos, k), points[i]), r, 1e-6);
      near(Math.hypot(...v(nor, k)), 1, 1e-6);
      // the normal points from the curve to the vertex
      near(v(pos, k).map((x, m) => (x - points[i][m]) / r), v(nor, k), 1e-5);
    }
  }
  for (let f = 0; f < idx.length; f += 3) {
    const [a, b, c] = [idx[f], idx[f + 1], idx[f + 2]].map((i) => v(pos, i));
    const e1 = b.map((x, m) => x - a[m]), e2 = c.map((x, m) => x - a[m]);
    const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    const vn = v(nor, idx[f]);
    assert.ok(n[0] * vn[0] + n[1] * vn[1] + n[2] * vn[2] > 0, `face ${f / 3} faces outward`);
  }
  // a straight cable: every ring perpendicular to it, none twisted against the one before
  const straight = [[0, 0, 4], [0, 0, 2], [0, 0, 0]];
  writeTube(straight, r, radial, pos, nor);
  for (let i = 0; i < 3; i++) near(nor[(i * radial) * 3 + 2], 0, 1e-12);
  near(v(nor, 0), v(nor, radial), 1e-12);
  near(v(nor, 2 * radial), v(nor, radial), 1e-12);
});

test('work frame: the Top view opens on the carrier, the rack, the truck and where the task\'s loads start', () => {
  const box = (c, size) => ({ center_m: c, size_m: size, yaw_deg: 0 });
  const base = { trash_rack: box([11.1, 0, -10], [0.2, 5, 20]), truck_bed: box([1, 8, 1.7], [6, 2.5, 1]) };
  const logs = [{ id: 0, shape: 'cylinder', radius_m: 0.25, length_m: 4, position_m: [10.8, -6.3, -2.5] },
    { id: 1, shape: 'sphere', radius_m: 0.4, position_m: [40, 40, -2.5] }];
  const without = workFrame(machine, { ...base, loads: logs });
  const withTask = workFrame(machine, { ...base, loads: logs, task: { loads: [0] } });
  const lowY = (f) => f.center[1] - f.size[1] / 2;
  // only a task load counts: the stray sphere far out does not widen the frame
  assert.ok(withTask.size[0] < 40 && withTask.size[1] < 40);
  // the log at y = -6.3, 2 m long each way, is inside with the margin; without a task it is not
  assert.ok(lowY(withTask) <= -6.3 - 2 - 3 + 1e-9, `frame from y ${lowY(withTask)}`);
  assert.ok(lowY(without) > -6.3 - 2, 'without a task its far end is left out');
});
