import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as THREE from 'three';
import {
  GHOST, orientedBox, sceneBoxToOriented, segmentEntry, occluders, clamTargets, approach, inPicture,
  createGhosting,
} from '../js/occlusion.js';
import { posePoint, partIndex } from '../js/geometry.js';
import { parseServerMessage } from '../js/protocol.js';

const fixture = (name) => readFileSync(new URL(`fixtures/${name}.json`, import.meta.url), 'utf8');
const hello = parseServerMessage(fixture('hello')).msg;
// read by the hello's display field names, as the page reads it
const display = parseServerMessage(fixture('display'), { displayFields: hello.display_fields }).msg;
const sc = hello.scene;

const X = [1, 0, 0], Y = [0, 1, 0], Z = [0, 0, 1];
const unitBox = orientedBox([0, 0, 0], [X, Y, Z], [1, 1, 1]);
const near = (a, b, eps = 1e-9) => assert.ok(Math.abs(a - b) < eps, `${a} != ${b}`);

// the dam of the fixture, in the base frame (z up), named as the client names them
const dam = [
  ['trash rack', sc.trash_rack], ['gate', sc.gate], ['intake floor', sc.intake_floor], ['deck', sc.deck],
  ['truck', sc.truck_bed], ...sc.intake_walls.map((w, i) => [`intake wall ${i + 1}`, w]),
];
const damBoxes = dam.map(([, b]) => sceneBoxToOriented(b));
const hiding = (eye, targets, opts) => {
  const out = occluders(eye, targets, damBoxes, opts);
  return dam.filter((_, i) => out[i]).map(([n]) => n);
};

test('segmentEntry: where a segment first enters a box, -1 when it misses', () => {
  near(segmentEntry([-3, 0, 0], [3, 0, 0], unitBox), 2 / 6);
  assert.equal(segmentEntry([-3, 2, 0], [3, 2, 0], unitBox), -1);       // passes beside
  assert.equal(segmentEntry([-3, 0, 0], [-2, 0, 0], unitBox), -1);      // stops short
  assert.equal(segmentEntry([-3, 0, 0], [3, 0, 0], unitBox, 0, 0.3), -1);  // tEnd before the box
  assert.equal(segmentEntry([0.5, 0, 0], [3, 0, 0], unitBox), 0);       // starts inside
  assert.equal(segmentEntry([-3, 0, 0], [-3, 5, 0], unitBox), -1);     // parallel to a slab, outside it
  near(segmentEntry([-3, 1.05, 0], [3, 1.05, 0], unitBox, 0.1), 1.9 / 6);  // grazing: counts with a margin
});

test('segmentEntry: a yawed box is tested along its own axes, not its bounding box', () => {
  // a 4 x 0.2 slab turned 45 deg about z: the segment crosses its axis-aligned bounds, not the slab
  const slab = sceneBoxToOriented({ center_m: [0, 0, 0], size_m: [4, 0.2, 1], yaw_deg: 45 });
  assert.equal(segmentEntry([1.2, -0.2, 0], [1.2, -1.5, 0], slab), -1);
  assert.ok(segmentEntry([-2, 2, 0], [2, -2, 0], slab) > 0);
  near(segmentEntry([1.2, 1.6, 0], [1.2, 0.8, 0], slab), (0.4 - 0.1 * Math.SQRT2) / 0.8, 1e-12);  // through its face
});

test('sceneBoxToOriented maps the box into three\'s frame with the scene root\'s turn', () => {
  const toThree = (v) => [v[0], v[2], -v[1]];
  const b = sceneBoxToOriented({ center_m: [11.5, 3, -11.5], size_m: [5, 1, 23], yaw_deg: 0 }, toThree);
  assert.deepEqual(b.center, [11.5, -11.5, -3]);
  assert.deepEqual(b.axes[2], [0, 1, 0]);   // base z is three's y
  assert.deepEqual(b.half, [2.5, 0.5, 11.5]);
  // the same segment hits it in both frames
  const p = [20, 3, -5], q = [5, 3, -5];
  near(segmentEntry(p, q, sceneBoxToOriented(sc.intake_walls[0])), segmentEntry(toThree(p), toThree(q), b));
});

test('occluders: the rack and a pier hide a clam lowered behind the rack from the water side', () => {
  const eye = [27, 16, 12.6];                   // about where the Full view starts
  const clam = [[10.3, 0, -8], [10.3, 0.8, -9]];
  assert.deepEqual(hiding(eye, clam), ['trash rack', 'intake wall 1']);
  // from straight across the water, level with it, only the rack stands between
  assert.deepEqual(hiding([30, 0, -8], clam), ['trash rack']);
  // the clam hanging over the bay at the home pose: nothing in the way
  assert.deepEqual(hiding(eye, [[10.3, 0, 2.5], [10.3, 0, 4.5]]), []);
  // the operator's seat on the deck, the clam low in the bay: the dam's crest block is in the way
  assert.ok(hiding([0.5, -0.8, 3.5], [[10.3, 0, -8]]).includes('deck'));
  // no targets, nothing hidden
  assert.deepEqual(hiding(eye, []), []);
});

test('occluders: a structure the target rests on or touches does not count (clearance)', () => {
  // a lip on the bay floor (top at z = -21), seen from above
  assert.deepEqual(hiding([11.5, 0, 5], [[11.5, 0, -21.02]]), []);
  assert.deepEqual(hiding([11.5, 0, 5], [[11.5, 0, -21.5]], { clearance: 0.15 }), ['intake floor']);
  // a jaw pressed against the rack's back face, seen from the water side: the rack still hides it
  assert.deepEqual(hiding([30, 0, -8], [[10.99, 0, -8]]), ['trash rack']);
});

test('occluders: an orthographic camera looks along its direction from behind each target', () => {
  // the top view: straight down from high above the middle of the scene
  const down = [0, 0, -1];
  const eye = [0, 0, 60];
  // in the bay on the water side of the rack: nothing is above it, though the rack stands
  // between it and the camera's position
  assert.deepEqual(hiding(eye, [[11.5, 0, -5]], { direction: down }), []);
  assert.deepEqual(hiding(eye, [[11.5, 0, -5]]), ['trash rack']);
  assert.deepEqual(hiding(eye, [[10.3, 0, -3]], { direction: down }), []);
  assert.deepEqual(hiding(eye, [[1, 8, 0.5]], { direction: down }), ['truck']);  // under the truck's bed
});

test('clamTargets: A, C, their middle, both hinges and both lips, then the held load', () => {
  // the points from the fixture frame's part poses, as scene.js takes them
  const at = partIndex(hello.parts);
  const P = (n) => display.parts[at[n]];
  const { link1_length_m: l1, lip_length_m: lip } = hello.machine.clam;
  const p = { a: P('clam_head').slice(0, 3), c: P('shell_right').slice(0, 3),
    hinges: [posePoint(P('arm_right'), [0, 0, -l1]), posePoint(P('arm_left'), [0, 0, -l1])],
    lips: [posePoint(P('shell_right'), [0, 0, -lip]), posePoint(P('shell_left'), [0, 0, -lip])] };
  const out = [];
  assert.equal(clamTargets(p, null, out), 7);
  assert.deepEqual(out[0], p.a);
  assert.deepEqual(out[1], p.c);
  out[2].forEach((x, k) => near(x, (p.a[k] + p.c[k]) / 2));
  // hinges and lips mirror about the clam's axis (the line A-C)
  const axis = p.a.map((x, k) => x - p.c[k]);
  const len = Math.hypot(...axis);
  const w = axis.map((x) => x / len);
  for (const [i, j] of [[3, 4], [5, 6]]) {
    const mid = out[i].map((x, k) => (x + out[j][k]) / 2);
    const along = mid.map((x, k) => x - p.a[k]);
    const s = along[0] * w[0] + along[1] * w[1] + along[2] * w[2];
    along.forEach((x, k) => near(x, s * w[k], 1e-5));
  }
  const first = out[0];
  assert.equal(clamTargets(p, [1, 2, 3], out), 8);
  assert.deepEqual(out[7], [1, 2, 3]);
  assert.equal(out[0], first, 'the arrays are reused');
});

test('approach moves by at most a step and stops at the target', () => {
  assert.equal(approach(0, 1, 0.25), 0.25);
  assert.equal(approach(0.9, 1, 0.25), 1);
  assert.equal(approach(0.1, 0, 0.25), 0);
  assert.equal(approach(0.5, 0.5, 0.25), 0.5);
});

test('inPicture: in front of the camera and inside the frustum', () => {
  const cam = new THREE.PerspectiveCamera(60, 1, 0.1, 100);
  cam.position.set(0, 0, 10);
  cam.lookAt(0, 0, 0);
  cam.updateMatrixWorld();
  const v = cam.matrixWorldInverse.elements, p = cam.projectionMatrix.elements;
  assert.equal(inPicture(v, p, [0, 0, 0]), true);
  assert.equal(inPicture(v, p, [0, 0, 20]), false);    // behind
  assert.equal(inPicture(v, p, [30, 0, 0]), false);    // off to the side
  assert.equal(inPicture(v, p, [0, 0, -200]), false);  // beyond the far plane
});

// a rack-like slab between a camera on +z and the target at the origin, a wall off to the side
function ghostScene() {
  // both sides, as the piers and the deck are drawn
  const shared = new THREE.MeshLambertMaterial({ color: 0x888888, side: THREE.DoubleSide });
  const rack = new THREE.Group();
  const bars = new THREE.Mesh(new THREE.BoxGeometry(4, 4, 0.2), shared);
  const beam = new THREE.Mesh(new THREE.BoxGeometry(4, 0.2, 0.2), new THREE.MeshLambertMaterial());
  rack.add(bars, beam);
  rack.position.set(0, 0, 3);
  const wall = new THREE.Mesh(new THREE.BoxGeometry(1, 4, 4), shared);
  wall.position.set(6, 0, 0);
  const structures = [
    { name: 'rack', box: orientedBox([0, 0, 3], [X, Y, Z], [2, 2, 0.1]), objects: [rack] },
    { name: 'wall', box: orientedBox([6, 0, 0], [X, Y, Z], [0.5, 2, 2]), objects: [wall] },
  ];
  const front = new THREE.PerspectiveCamera(50, 1, 0.1, 100);
  front.position.set(0, 0, 10);
  front.lookAt(0, 0, 0);
  const side = new THREE.PerspectiveCamera(50, 1, 0.1, 100);
  side.position.set(-10, 0, 0);
  side.lookAt(0, 0, 0);
  return { shared, bars, beam, wall, structures, front, side, targets: [[0, 0, 0], [0, 0.5, 0]] };
}

test('ghosting: the occluding structure fades over fadeS, per camera, and comes back', () => {
  const s = ghostScene();
  const g = createGhosting(s.structures);
  const beamMat = s.beam.material;
  assert.equal(g.apply('front', s.front, s.targets, 2, 1000), true);  // first sight: opaque, about to fade
  assert.deepEqual(g.occluding('front'), ['rack']);
  assert.equal(s.bars.material, s.shared);
  assert.equal(g.apply('front', s.front, s.targets, 2, 1000 + GHOST.fadeS * 500), true);  // half way
  assert.notEqual(s.bars.material, s.shared, 'its own ghost, not the shared material');
  assert.equal(s.bars.material.transparent, true);
  assert.equal(s.bars.material.depthWrite, false);
  assert.equal(s.bars.material.side, THREE.FrontSide, 'drawn once, its front faces only, though the original has both');
  near(s.bars.material.opacity, 1 - (1 - GHOST.opacity) / 2, 1e-9);
  assert.equal(s.shared.transparent, false, 'the original is untouched');
  assert.equal(s.wall.material, s.shared, 'a structure that does not occlude stays opaque');
  assert.deepEqual(Object.keys(g.faded('front')), ['rack']);
  assert.equal(g.apply('front', s.front, s.targets, 2, 1000 + GHOST.fadeS * 1000), false);
  near(s.bars.material.opacity, GHOST.opacity, 1e-9);
  near(s.beam.material.opacity, GHOST.opacity, 1e-9);
  assert.deepEqual(g.faded('front'), { rack: GHOST.opacity });

  // another viewport's camera, from the side: the rack is not in its way, so it is drawn opaque there
  g.apply('side', s.side, s.targets, 2, 1500);
  assert.deepEqual(g.occluding('side'), []);
  assert.equal(s.bars.material, s.shared);
  assert.equal(s.beam.material, beamMat);
  // and faded again for the front camera's viewport, with no new fade-in
  g.apply('front', s.front, s.targets, 2, 1500);
  near(s.bars.material.opacity, GHOST.opacity, 1e-9);

  // the camera moves out from behind the rack: it fades back and gets its material back
  s.front.position.set(0, 10, 0);
  s.front.lookAt(0, 0, 0);
  assert.equal(g.apply('front', s.front, s.targets, 2, 1600), true);
  assert.deepEqual(g.occluding('front'), []);
  g.apply('front', s.front, s.targets, 2, 1600 + GHOST.fadeS * 1000);
  assert.equal(s.bars.material, s.shared);
  assert.deepEqual(g.faded('front'), {});

  g.dispose();
  assert.equal(s.bars.material, s.shared);
});

test('ghosting: a target out of the picture hides nothing; dispose puts the materials back', () => {
  const s = ghostScene();
  const g = createGhosting(s.structures);
  // the camera looks away from the clam (still behind the rack from where it stands)
  s.front.lookAt(0, 0, 20);
  g.apply('front', s.front, s.targets, 2, 0);
  assert.deepEqual(g.occluding('front'), []);
  // orthographic, straight down at the rack's top: looks past the eye's position
  const top = new THREE.OrthographicCamera(-10, 10, 10, -10, 0.1, 100);
  top.position.set(0, 50, 0);
  top.up.set(0, 0, -1);
  top.lookAt(0, 0, 0);
  top.updateProjectionMatrix();
  // (from the camera's position the line to the target misses the rack)
  const under = [[0, -3, 3]];
  g.apply('top', top, under, 1, 0);
  assert.deepEqual(g.occluding('top'), ['rack']);
  g.apply('top', top, under, 1, 1000);
  assert.notEqual(s.bars.material, s.shared);
  g.dispose();
  assert.equal(s.bars.material, s.shared);
  assert.equal(s.wall.material, s.shared);
});
