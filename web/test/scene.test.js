// The three.js world placed by the server's part poses (no WebGL: matrices and vertices).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseServerMessage } from '../js/protocol.js';
import { posePoint, partIndex } from '../js/geometry.js';

const fixture = (name) => readFileSync(new URL(`fixtures/${name}.json`, import.meta.url), 'utf8');
const hello = parseServerMessage(fixture('hello')).msg;
// read by the hello's display field names, as the page reads it
const display = parseServerMessage(fixture('display'), { displayFields: hello.display_fields }).msg;
const at = partIndex(hello.parts);
const P = (n) => display.parts[at[n]];
const near = (a, b, eps) => a.forEach((x, i) => assert.ok(Math.abs(x - b[i]) < eps, `${a} != ${b}`));

let THREE, buildWorld;
before(async () => {
  // the contact markers' ring texture is drawn on a canvas: a stand-in is enough here
  const ctx2d = { createRadialGradient: () => ({ addColorStop() {} }), fillRect() {}, fillStyle: null };
  globalThis.document ??= { createElement: () => ({ getContext: () => ctx2d }) };
  THREE = await import('three');
  ({ buildWorld } = await import('../js/scene.js'));
});

// a point of the base frame (z up) in three's frame, as the root group turns it
const toThree = (p) => [p[0], p[2], -p[1]];
const worldOf = (obj, local) => {
  const v = new THREE.Vector3(...local).applyMatrix4(obj.matrixWorld);
  return [v.x, v.y, v.z];
};
const poses = () => [...display.parts, ...display.loads.map((l) => [...l.position_m, ...l.orientation])];

test('scene: every part drawn where its pose puts it; nothing drawn before a frame', () => {
  const world = buildWorld(hello);
  assert.deepEqual(world.missingParts, []);
  const fly = world.scene.getObjectByName('fly');
  assert.equal(fly.visible, false, 'no frame yet: the machine is not drawn');
  assert.equal(world.update(display), true);
  world.place(poses(), [display.values.cable1_m, display.values.cable2_m]);
  world.scene.updateMatrixWorld(true);
  for (const name of hello.parts) {
    const g = world.scene.getObjectByName(name);
    assert.equal(g.visible, true, name);
    near(worldOf(g, [0, 0, 0]), toThree(P(name)), 1e-6);
    near(worldOf(g, [0, 0, 1]), toThree(posePoint(P(name), [0, 0, 1])), 1e-6);
  }
  // the tip sheave at the fly's origin (tip_m), A and C where the frame says
  near(worldOf(fly, [0, 0, 0]), toThree(display.tip_m), 1e-5);
  near(world.clamCenter().toArray(), toThree(display.point_a_m.map((x, k) => (x + display.point_c_m[k]) / 2)), 1e-5);
  // the operator's eye turns with the superstructure
  const eye = world.eye().toArray();
  const ss = world.scene.getObjectByName('superstructure');
  const cab = hello.machine.crane.links.swing_cab;
  near(eye, worldOf(ss, [0, 1, 2].map((k) => cab.com_m[k] + cab.box_m[k] * [0.3, 0.45, 0.3][k])), 1e-6);
  // the camera targets: A, C, their middle, two hinges, two lips and the held load
  assert.equal(world.targets.count, 8);
  near(world.targets.points[0], toThree(display.point_a_m), 1e-5);
});

test('scene: each bucket\'s hinge B (the middle of its bosses) meets its arm\'s end; the left is the mirror image', () => {
  const world = buildWorld(hello);
  world.update(display);
  world.place(poses(), [display.values.cable1_m, display.values.cable2_m]);
  world.scene.updateMatrixWorld(true);
  const { link2_length_m: l2, theta2_closed_deg: tc } = hello.machine.clam;
  const b = [l2 * Math.sin((tc * Math.PI) / 180), 0, l2 * Math.cos((tc * Math.PI) / 180)];
  for (const [name, sign] of [['shell_right', 1], ['shell_left', -1]]) {
    const mesh = world.scene.getObjectByName(name).getObjectByName('bucket');
    // the middle of the hinge bosses' boxes (a boss at each end of the width)
    const bosses = mesh.userData.pieces.filter((p) => p.name === 'hinge boss');
    assert.equal(bosses.length, 2, `${name}: hinge bosses`);
    const local = [0, 1, 2].map((k) => bosses.reduce((sum, p) => sum + (p.min[k] + p.max[k]) / 4, 0));
    near(local, [sign * b[0], 0, b[2]], 1e-5);
    // where the arm of that side ends
    const arm = posePoint(P(sign > 0 ? 'arm_right' : 'arm_left'), [0, 0, -hello.machine.clam.link1_length_m]);
    near(worldOf(mesh, local), toThree(arm), 1e-4);
  }
  near(toThree(posePoint(P('arm_right'), [0, 0, -hello.machine.clam.link1_length_m])), toThree(display.point_b_m), 1e-4);
});

test('scene: a cable is one geometry, rewritten in place from the tip to its end', () => {
  // the hanging part alone, as a server without the ropes' reeving sends them
  const world = buildWorld({ ...hello, machine: { ...hello.machine,
    cables: hello.machine.cables.map((c) => ({ ...c, reeving: null })) } });
  world.update(display);
  const cable = world.scene.getObjectByName('cable 1');
  const geometry = cable.geometry;
  const pos = geometry.getAttribute('position');
  world.place(poses(), [display.values.cable1_m, display.values.cable2_m]);
  const v0 = pos.version;
  // the ends: the first ring around a point by the tip, the last by A (three's frame)
  const ring = (r) => {
    const sides = pos.count / 25;
    const c = [0, 0, 0];
    for (let j = 0; j < sides; j++) for (let k = 0; k < 3; k++) c[k] += pos.array[(r * sides + j) * 3 + k] / sides;
    return c;
  };
  assert.ok(Math.hypot(...ring(0).map((x, k) => x - display.tip_m[k])) < 0.5, 'cable 1 leaves the tip');
  assert.ok(Math.hypot(...ring(24).map((x, k) => x - display.point_a_m[k])) < 0.5, 'and ends at A');
  // the next draw: the same geometry and buffer, its contents rewritten
  const moved = poses();
  moved[at.clam_head] = [...moved[at.clam_head]];
  moved[at.clam_head][2] -= 1;
  const array = pos.array;
  world.place(moved, [display.values.cable1_m + 1, display.values.cable2_m]);
  assert.equal(cable.geometry, geometry);
  assert.equal(pos.array, array);
  assert.ok(pos.version > v0, 'marked for upload');
  assert.ok(Math.abs(ring(24)[2] - (display.point_a_m[2] - 1)) < 0.5);
  // the slack is the rope beyond the straight line from the cable's top to its end: a metre
  // more rope is a metre more slack, and a rope shorter than that line hangs taut, unbowed
  world.place(moved, [display.values.cable1_m + 5, display.values.cable2_m]);
  const slack = world.state.slack[0];
  assert.ok(slack > 0, `5 m more rope than the frame's hangs slack (${slack})`);
  world.place(moved, [display.values.cable1_m + 6, display.values.cable2_m]);
  assert.ok(Math.abs(world.state.slack[0] - slack - 1) < 1e-9, `${world.state.slack[0]} vs ${slack} + 1`);
  assert.ok(world.state.sag[0] > 0);
  world.place(moved, [0.5, display.values.cable2_m]);
  assert.equal(world.state.slack[0], 0);
  assert.equal(world.state.sag[0], 0);
});

test('scene: a frame without a pose for every part moves nothing', () => {
  const world = buildWorld(hello);
  assert.equal(world.update({ ...display, parts: display.parts.slice(0, 4) }), false);
  assert.equal(world.update({ ...display, parts: undefined }), false);
  const bare = buildWorld({ ...hello, parts: null });
  assert.equal(bare.missingParts.length, 9);
  assert.equal(bare.update(display), false);
});

test('scene: the boom cylinder\'s barrel and rod, when the server sends their poses', () => {
  assert.deepEqual(hello.machine.crane.boom_cylinder, { retracted_m: 2.0358, extended_m: 3.3879, bore_m: 0.2828 });
  // an older server's nine parts: no cylinder drawn
  const nine = { ...hello, parts: hello.parts.slice(0, 9) };
  assert.equal(buildWorld(nine).scene.getObjectByName('boom_cylinder'), undefined);
  // base pivot 1 m behind the swing axis, rod eye 3 m up the boom: each points at the other
  const base = [-1, 0, 1.5], eye = [1.5, 0, 3], L = Math.hypot(2.5, 1.5), h = Math.atan2(2.5, 1.5) / 2;
  const up = [Math.cos(h), 0, Math.sin(h), 0];           // +z turned towards +x
  const down = [Math.cos(h + Math.PI / 2), 0, Math.sin(h + Math.PI / 2), 0];
  const hello2 = { ...nine, parts: [...nine.parts, 'boom_cylinder', 'boom_rod'] };
  const frame = { ...display, parts: [...display.parts.slice(0, 9), [...base, ...up], [...eye, ...down]] };
  const world = buildWorld(hello2);
  assert.equal(world.update(frame), true);
  world.place([...frame.parts, ...frame.loads.map((l) => [...l.position_m, ...l.orientation])], [8, 10]);
  world.scene.updateMatrixWorld(true);
  const barrel = world.scene.getObjectByName('boom_cylinder'), rod = world.scene.getObjectByName('boom_rod');
  assert.equal(barrel.visible && rod.visible, true);
  near(worldOf(barrel, [0, 0, L]), toThree(eye), 1e-9);
  near(worldOf(rod, [0, 0, L]), toThree(base), 1e-9);
  // the barrel's mesh runs from its pivot along +z for retracted_m
  const mesh = barrel.children[0];
  mesh.geometry.computeBoundingBox();
  near([mesh.geometry.boundingBox.min.z, mesh.geometry.boundingBox.max.z], [0, 2.0358], 1e-6);  // float32 vertices
});

test('scene: a reeved rope is one tube from its drum over the foot sheave and round the tip sheave to the clam', () => {
  // the hello's reeving (docs/websocket-protocol.md): drum, foot sheave, tip sheave
  const reeving = (drumX) => [{ part: 'superstructure', at: [drumX, -0.5, 0] }, { part: 'boom_base', at: [0.5, 0, 0.6] },
    { part: 'fly', at: [0, 0, 0] }];
  const machine = { ...hello.machine, cables: hello.machine.cables.map((c, i) => ({ ...c, reeving: reeving(i ? -1.9 : -1.2) })) };
  const world = buildWorld({ ...hello, machine });
  world.update(display);
  world.place(poses(), [display.values.cable1_m, display.values.cable2_m]);
  const cable = world.scene.getObjectByName('cable 1');
  const pos = cable.geometry.getAttribute('position');
  const rings = 25 + 2 * 4;                  // the hanging part, and 4 points round each sheave
  const sides = pos.count / rings;
  assert.equal(sides, 6);
  const ring = (r) => {
    const c = [0, 0, 0];
    for (let j = 0; j < sides; j++) for (let k = 0; k < 3; k++) c[k] += pos.array[(r * sides + j) * 3 + k] / sides;
    return c;
  };
  const drum = posePoint(P('superstructure'), [-1.2, -0.5, 0]);
  const foot = posePoint(P('boom_base'), [0.5, 0, 0.6]);
  const r = hello.machine.cables[0].drum_radius_m;
  const off = hello.machine.crane.links.telescopic.box_m[1] * 0.35;   // its groove, across the boom
  assert.ok(Math.abs(Math.hypot(...ring(0).map((x, k) => x - drum[k])) - Math.hypot(r, off)) < 0.02, 'leaves its drum');
  for (let i = 1; i <= 4; i++) assert.ok(Math.hypot(...ring(i).map((x, k) => x - foot[k])) < 0.7 * r + off + 0.01, 'over the foot sheave');
  for (let i = 5; i <= 8; i++) assert.ok(Math.hypot(...ring(i).map((x, k) => x - display.tip_m[k])) < r + off + 0.01, 'round the tip sheave');
  assert.ok(Math.hypot(...ring(rings - 1).map((x, k) => x - display.point_a_m[k])) < 0.5, 'and ends at A');
  // the drums on the superstructure and the foot sheave on the boom base, in their one mesh each
  const ss = world.scene.getObjectByName('superstructure').children;
  assert.equal(ss.length, 1);
  assert.equal(ss[0].userData.drums.length, 2);
  assert.deepEqual(ss[0].userData.drums.map((d) => d.radius), [r, r]);
  const base = world.scene.getObjectByName('boom_base').children;
  assert.equal(base.length, 1);
  assert.equal(base[0].userData.footSheaves.length, 1);
});
