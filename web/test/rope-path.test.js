// The ropes reeved along the boom (web/js/rope-path.js): the hello's anchors placed by a
// frame's part poses, and the drawn route over the drum and the sheaves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reevings, ropeAnchors, ropeRoute, routeLength, spreadAnchors } from '../js/rope-path.js';
import { partIndex, distance } from '../js/geometry.js';

const near = (a, b, eps, what = '') => a.forEach((x, i) => assert.ok(Math.abs(x - b[i]) < eps, `${what} ${a} != ${b}`));

// the documented shape (docs/websocket-protocol.md, hello.machine.cables[i].reeving)
const parts = ['carrier', 'superstructure', 'boom_base', 'fly', 'clam_head'];
const machine = {
  cables: [
    { drum_radius_m: 0.3, reeving: [{ part: 'superstructure', at: [-1.2, -0.5, 0] },
      { part: 'boom_base', at: [0.5, 0, 0.6] }, { part: 'fly', at: [0, 0, 0] }] },
    { drum_radius_m: 0.3, reeving: [{ part: 'superstructure', at: [-1.9, -0.5, 0] },
      { part: 'boom_base', at: [0.5, 0, 0.6] }, { part: 'fly', at: [0, 0, 0] }] },
  ],
};
const index = partIndex(parts);
const identity = [0, 0, 0, 1, 0, 0, 0];

test('rope path: identity poses give the anchors\' local points', () => {
  const r = reevings(machine, parts);
  const anchors = ropeAnchors(r, parts.map(() => identity), index);
  assert.deepEqual(anchors[0], [[-1.2, -0.5, 0], [0.5, 0, 0.6], [0, 0, 0]]);
  assert.deepEqual(anchors[1], [[-1.9, -0.5, 0], [0.5, 0, 0.6], [0, 0, 0]]);
});

test('rope path: each anchor is moved by its own part\'s pose (rotation and translation)', () => {
  const r = reevings(machine, parts);
  // superstructure: 90 degrees about x (frame 1: y up) at the boom pivot (-1, 0, 2.4);
  // boom base: 90 degrees about z, shifted; fly: translated
  const h = Math.SQRT1_2;
  const poses = parts.map(() => identity);
  poses[index.superstructure] = [-1, 0, 2.4, h, h, 0, 0];
  poses[index.boom_base] = [1, 2, 3, h, 0, 0, h];
  poses[index.fly] = [10, 0, 6, 1, 0, 0, 0];
  const [a] = ropeAnchors(r, poses, index);
  // (x, y, z) -> (x, -z, y) about x; (x, y, z) -> (-y, x, z) about z
  near(a[0], [-1 - 1.2, 0, 2.4 - 0.5], 1e-12, 'drum');
  near(a[1], [1 - 0, 2 + 0.5, 3 + 0.6], 1e-12, 'foot');
  near(a[2], [10, 0, 6], 1e-12, 'tip');
});

test('rope path: a hello without reeving (or with a bad one) gives no path, so older servers still draw', () => {
  assert.deepEqual(reevings({ cables: [{ drum_radius_m: 0.3 }, { drum_radius_m: 0.3 }] }, parts), [null, null]);
  assert.deepEqual(reevings({}, parts), []);
  const bad = { cables: [
    { reeving: [{ part: 'winch_house', at: [0, 0, 0] }, { part: 'fly', at: [0, 0, 0] }] },  // part not in hello.parts
    { reeving: [{ part: 'superstructure', at: [0, 0] }, { part: 'fly', at: [0, 0, 0] }] },  // not a point
  ] };
  assert.deepEqual(reevings(bad, parts), [null, null]);
  const none = ropeAnchors([null, null], parts.map(() => identity), index);
  assert.deepEqual(none, [null, null]);
  assert.deepEqual(spreadAnchors(none, [0, 1, 0], [0.1, -0.1]), [null, null]);
});

test('rope path: the route leaves the drum, passes over the foot sheave, along the boom and round the tip sheave towards the clam', () => {
  // a boom at 30 degrees in the x-z plane from a pivot at the origin; foot sheave 0.6 m along
  // and 0.5 m above its axis, tip 12 m along; drum behind and below; the clam 5 m under the tip
  const c = Math.cos(Math.PI / 6), s = Math.sin(Math.PI / 6);
  const u = [c, 0, s], n = [-s, 0, c];
  const at = (along, above) => u.map((x, k) => along * x + above * n[k]);
  const drum = [-1.2, 0, -0.5], foot = at(0.6, 0.5), tip = at(12, 0), clam = [tip[0], 0, tip[2] - 5];
  const rd = 0.3, rf = 0.2, rt = 0.3, k = 4;
  const route = ropeRoute([drum, foot, tip], clam, { drumRadius: rd, sheaveRadius: rf, tipRadius: rt, arcPoints: k });
  assert.equal(route.length, routeLength(3, k));
  assert.equal(route.length, 1 + 2 * k);
  // the first point on the drum, then k on the foot sheave, k on the tip sheave
  assert.ok(Math.abs(distance(route[0], drum) - rd) < 1e-9);
  for (let i = 1; i <= k; i++) assert.ok(Math.abs(distance(route[i], foot) - rf) < 1e-9, `foot ${i}`);
  for (let i = k + 1; i <= 2 * k; i++) assert.ok(Math.abs(distance(route[i], tip) - rt) < 1e-9, `tip ${i}`);
  // over the top: along the boom the rope is above its axis (on the upper side n)
  const above = (p) => (p[0] * n[0] + p[2] * n[2]);
  // (square to the line between the sheaves' centres, which climbs 0.5 m less than the boom)
  assert.ok(above(route[k]) > 0.5 + rf - 0.01, 'leaves the foot sheave on its top');
  near(route[k + 1], tip.map((x, j) => x + rt * n[j]), 0.02, 'comes onto the tip sheave on its top');
  // the run along the boom is parallel to it (equal radii would make it exact; here close)
  const run = route[k + 1].map((x, j) => x - route[k][j]);
  assert.ok(Math.abs(run[0] * n[0] + run[2] * n[2]) / Math.hypot(...run) < 0.05, 'along the boom');
  // off the tip sheave on its far side, square to the hanging rope (straight down here)
  const last = route[route.length - 1];
  near(last, [tip[0] + rt, 0, tip[2]], 1e-9, 'leaves the tip towards the clam');
  // the drum end on the same side of the first leg as the foot sheave takes it
  const leg = foot.map((x, j) => x - drum[j]);
  const side = route[0].map((x, j) => x - drum[j]);
  assert.ok(Math.abs(side[0] * leg[0] + side[2] * leg[2]) < 1e-9 && side[2] > 0, 'off the drum\'s top');
  // up to the tip sheave the route is about the physics' reeved length (docs/model.md,
  // centre to centre drum -> foot -> tip, the sheaves' radii left out)
  let drawn = 0;
  for (let i = 1; i <= k + 1; i++) drawn += distance(route[i], route[i - 1]);
  const physics = distance(drum, foot) + distance(foot, tip);
  assert.ok(Math.abs(drawn - physics) < 0.2, `drawn ${drawn} against ${physics}`);
});

test('rope path: the two ropes run side by side in their grooves (spread across the boom)', () => {
  const r = reevings(machine, parts);
  const anchors = spreadAnchors(ropeAnchors(r, parts.map(() => identity), index), [0, 1, 0], [0.1, -0.1]);
  near(anchors[0][2], [0, 0.1, 0], 1e-12);
  near(anchors[1][1], [0.5, -0.1, 0.6], 1e-12);
  // a rope bent the other way at the foot sheave (steeper boom than the drum leg) still
  // passes over its top
  const route = ropeRoute([[-2, 0, 0], [0, 0, 1], [5, 0, 8]], [5, 0, 0], { drumRadius: 0.3, sheaveRadius: 0.2, tipRadius: 0.3 });
  for (const p of route.slice(1, 5)) assert.ok(p[2] >= 1 - 1e-9 || p[0] < 0, `foot ${p}`);
});
