// The truck crane's merged meshes (web/js/models/crane-model.js), checked by their vertices
// and vertex colours, without WebGL.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseServerMessage } from '../js/protocol.js';

const hello = parseServerMessage(readFileSync(new URL('fixtures/hello.json', import.meta.url), 'utf8')).msg;
const machine = hello.machine;
const crane = machine.crane;

let THREE, buildCrane, COLORS, modelMaterial;
before(async () => {
  THREE = await import('three');
  ({ buildCrane, COLORS } = await import('../js/models/crane-model.js'));
  ({ modelMaterial } = await import('../js/models/merge.js'));
});

// the vertices of a merged mesh painted `hex`, as [x, y, z]
function verticesOf(mesh, hex) {
  const c = new THREE.Color(hex);
  const pos = mesh.geometry.getAttribute('position'), col = mesh.geometry.getAttribute('color');
  const out = [];
  for (let i = 0; i < pos.count; i++) {
    if (Math.abs(col.getX(i) - c.r) < 1e-4 && Math.abs(col.getY(i) - c.g) < 1e-4 && Math.abs(col.getZ(i) - c.b) < 1e-4) {
      out.push([pos.getX(i), pos.getY(i), pos.getZ(i)]);
    }
  }
  return out;
}
const range = (vs, k) => [Math.min(...vs.map((v) => v[k])), Math.max(...vs.map((v) => v[k]))];

const ground = 0, carrierTop = 0.5;
const eyeLocal = [1.7, -0.57, 0.72];
const build = () => buildCrane(machine, { ground, carrierTop, material: modelMaterial(), eyeLocal });

test('crane model: each part is one mesh (one draw call), colours per vertex', () => {
  const m = build();
  for (const name of ['carrier', 'superstructure', 'boomBase', 'fly']) {
    assert.ok(m[name].isMesh, name);
    assert.equal(m[name].children.length, 0, `${name}: no child meshes`);
    assert.ok(m[name].geometry.getAttribute('color'), `${name}: vertex colours`);
    assert.equal(m[name].material.vertexColors, true);
  }
});

test('crane model: the tyres stand on the ground, the pads on pad_height, the driver\'s cab above the tyres', () => {
  const m = build();
  const tyres = verticesOf(m.carrier, COLORS.tyre);
  assert.ok(tyres.length > 0);
  assert.ok(Math.abs(range(tyres, 2)[0] - ground) < 1e-6, `lowest tyre point ${range(tyres, 2)[0]}`);
  // four axles, a wheel at each side
  const xs = new Set(tyres.map((v) => v[0].toFixed(0)));
  assert.ok(xs.size >= 4);
  assert.ok(range(tyres, 1)[0] < 0 && range(tyres, 1)[1] > 0, 'wheels on both sides');
  const pads = verticesOf(m.carrier, COLORS.pad);
  assert.ok(Math.abs(range(pads, 2)[0] - machine.carrier.pad_height_m) < 1e-6);
  // the pads' rectangle is hello.machine.carrier's
  const c = machine.carrier;
  assert.ok(Math.abs(range(pads, 1)[1] - (c.outrigger_half_span_m + 0.3)) < 1e-6);
  assert.ok(range(pads, 0)[1] > c.outrigger_front_m && range(pads, 0)[0] < -c.outrigger_rear_m);
  const cab = verticesOf(m.carrier, COLORS.driverCab);
  assert.ok(range(cab, 2)[0] >= range(tyres, 2)[1], 'the driver\'s cab sits above the tyres');
});

test('crane model: the counterweight is behind the swing axis, the operator\'s cab around the eye', () => {
  const m = build();
  // frame 1: x forward, the swing axis at x = a1
  const cw = verticesOf(m.superstructure, COLORS.counterweight);
  assert.ok(cw.length > 0);
  assert.ok(range(cw, 0)[1] < crane.a1_m - 1, 'counterweight well behind the swing axis');
  assert.ok(range(cw, 0)[1] <= crane.links.swing_cab.com_m[0] - crane.links.swing_cab.box_m[0] / 2 + 1e-6, 'at the rear');
  // the cab's pillars and roof around the eye: the eye inside its box
  const { opCab } = m.superstructure.userData;
  for (let k = 0; k < 3; k++) {
    const r = [opCab.x, opCab.y, opCab.z][k];
    assert.ok(eyeLocal[k] > r[0] && eyeLocal[k] < r[1], `eye inside the cab along axis ${k}`);
  }
  // the floor on the swing base
  const all = m.superstructure.geometry.getAttribute('position');
  let minY = Infinity;
  for (let i = 0; i < all.count; i++) minY = Math.min(minY, all.getY(i));
  assert.ok(Math.abs(minY - (carrierTop - crane.d1_m)) < 1e-6);
});

test('crane model: the fly ends at its frame origin (the tip sheave) and fits inside the base section', () => {
  const m = build();
  const fly = verticesOf(m.fly, COLORS.fly);
  const [z0, z1] = range(fly, 2);
  assert.ok(Math.abs(z1) < 1e-6, `fly's far end at z ${z1}`);
  assert.ok(Math.abs(z0 + crane.links.telescopic.box_m[2]) < 1e-5);
  // retracted (the tip at telescope_min from the pivot): the fly lies within the base
  const base = verticesOf(m.boomBase, COLORS.boom);
  const bz = range(base, 2);
  assert.ok(crane.telescope_min_m + z0 >= bz[0] - 1e-6 && crane.telescope_min_m + z1 <= bz[1] + 1e-6);
  for (const k of [0, 1]) {
    const f = range(fly, k), b = range(base, k);
    assert.ok(f[0] > b[0] && f[1] < b[1], `fly's section inside the base's (axis ${k})`);
  }
  // the sheaves at the origin, their axle across (y)
  const sheaves = verticesOf(m.fly, COLORS.sheave);
  const r = m.fly.userData.sheaveRadius;
  near(range(sheaves, 0), [-r, r]);
  near(range(sheaves, 2), [-r, r]);
});

function near(a, b, eps = 1e-5) {
  a.forEach((x, i) => assert.ok(Math.abs(x - b[i]) < eps, `${a} != ${b}`));
}
