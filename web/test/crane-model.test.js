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

test('crane model: the tyres stand on the ground, the pads on pad_height, the driver\'s cab ahead of the tyres', () => {
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
  assert.ok(range(cab, 0)[0] > range(tyres, 0)[1], 'the driver\'s cab ahead of the front tyres');
  assert.ok(range(cab, 2)[0] > ground, 'the cab off the ground');
});

test('crane model: each wheel a tyre with a rim and a hub standing proud of its outer face', () => {
  const m = build();
  const { wheelRadius: r, axles, wheelY } = m.carrier.userData;
  // the front half of the front left wheel (no other wheel reaches past its axle)
  const front = Math.max(...axles);
  const near = (vs) => vs.filter((v) => v[0] >= front - 1e-6 && v[1] > 0 && v[0] < front + r + 1e-6);
  const tyre = near(verticesOf(m.carrier, COLORS.tyre));
  const rim = near(verticesOf(m.carrier, COLORS.rim));
  const hub = near(verticesOf(m.carrier, COLORS.hub));
  assert.ok(rim.length > 0 && hub.length > 0);
  const reach = (vs) => range(vs, 0)[1] - front;
  assert.ok(Math.abs(reach(tyre) - r) < 1e-5, 'the tyre as big as the wheel');
  assert.ok(reach(rim) < 0.7 * r && reach(rim) > 0.4 * r && reach(hub) < 0.5 * reach(rim), 'rim inside the tyre, hub inside the rim');
  assert.ok(range(rim, 1)[1] > range(tyre, 1)[1] && range(hub, 1)[1] > range(rim, 1)[1], 'proud of the outer face');
  assert.ok(Math.abs((range(tyre, 1)[0] + range(tyre, 1)[1]) / 2 - wheelY) < 1e-5);
  // kept cheap: 16 wheels of three cylinders of at most 12 segments
  assert.ok(m.carrier.geometry.index.count / 3 < 16 * 3 * 4 * 12 + 600, `${m.carrier.geometry.index.count / 3} triangles`);
});

// The superstructure turns about the swing axis (frame 1: x = a1, z = 0, y up; base z = y + d1)
// over the carrier. A point at horizontal radius rho from the axis passes over the driver's
// cab's footprint at some slew iff rho reaches the footprint's nearest radius; every such
// point must clear the cab's roof. Checked for the fixture's superstructure and for one
// whose counterweight hangs high at the rear (4.1-4.9 m behind the axis, as drawn before the
// hello carried the model's counterweight), with the ropes' drums.
const t250 = structuredClone(machine);
t250.crane.counterweight = { mass_kg: 4000, com_m: [-3.47, -0.5, 0], box_m: [0.8, 0.6, 2.3] };
t250.cables = t250.cables.map((c, i) => ({ ...c, reeving: [{ part: 'superstructure', at: [i ? -1.9 : -1.2, -0.5, 0] },
  { part: 'boom_base', at: [0.5, 0, 0.6] }, { part: 'fly', at: [0, 0, 0] }] }));
const cabFloor = (mc) => mc.crane.d1_m + mc.crane.links.swing_cab.com_m[1] - mc.crane.links.swing_cab.box_m[1] / 2;

for (const [name, mc] of [['fixture', machine], ['t250', t250]]) {
  test(`crane model (${name}): no superstructure piece meets the driver's cab at any slew`, () => {
    const top = Math.max(cabFloor(mc), ground + 0.2);  // scene.js's carrierTop
    const m = buildCrane(mc, { ground, carrierTop: top, material: modelMaterial(), eyeLocal });
    const cab = [...verticesOf(m.carrier, COLORS.driverCab), ...verticesOf(m.carrier, COLORS.glass)];
    const [x0, x1] = range(cab, 0), [y0, y1] = range(cab, 1), roof = range(cab, 2)[1];
    const clamp = (v, a, b) => Math.min(b, Math.max(a, v));
    const nearest = Math.hypot(clamp(0, x0, x1), clamp(0, y0, y1));
    const { a1_m: a1, d1_m: d1 } = mc.crane;
    const pos = m.superstructure.geometry.getAttribute('position');
    let clearance = Infinity, over = 0;
    for (let i = 0; i < pos.count; i++) {
      const rho = Math.hypot(pos.getX(i) - a1, pos.getZ(i));
      if (rho < nearest) continue;
      over++;
      clearance = Math.min(clearance, pos.getY(i) + d1 - roof);
    }
    assert.ok(clearance >= 0.1, `${name}: ${clearance.toFixed(3)} m over the cab's roof`);
    // the counterweight, turned in 5 degree steps: its box never meets the cab's
    const cw = verticesOf(m.superstructure, COLORS.counterweight);
    const [cx0, cx1] = range(cw, 0), [cz0, cz1] = range(cw, 2), bottom = range(cw, 1)[0] + d1;
    for (let deg = 0; deg < 360; deg += 5) {
      const c = Math.cos(deg * Math.PI / 180), s = Math.sin(deg * Math.PI / 180);
      // frame 1 (x, z) about the axis -> base (x, y): x forward, z to the right (base -y)
      const corners = [cx0, cx1].flatMap((x) => [cz0, cz1].map((z) => [(x - a1) * c + z * s, (x - a1) * s - z * c]));
      const bx = range(corners, 0), by = range(corners, 1);
      const apart = bx[1] < x0 || bx[0] > x1 || by[1] < y0 || by[0] > y1 || bottom > roof;
      assert.ok(apart, `${name}: the counterweight meets the cab at slew ${deg}`);
    }
    if (name === 't250') {
      assert.ok(over > 0 && Math.hypot(cx0 - a1, cz1) > nearest, 'the high counterweight swings over the cab');
      assert.ok(bottom - roof >= 0.15, `the counterweight ${(bottom - roof).toFixed(3)} m over the cab's roof`);
    }
  });
}

test('crane model: the counterweight is behind the swing axis, the operator\'s cab around the eye', () => {
  const m = build();
  // frame 1: x forward, the swing axis at x = a1
  const cw = verticesOf(m.superstructure, COLORS.counterweight);
  assert.ok(cw.length > 0);
  assert.ok(range(cw, 0)[1] < crane.a1_m - 1, 'counterweight well behind the swing axis');
  // where the dynamics put it: the hello's block (its sides 2 cm in, off the deck's planes)
  const { com_m: c, box_m: b } = crane.counterweight;
  for (let k = 0; k < 3; k++) {
    const [lo, hi] = range(cw, k), inset = k === 2 ? 0.02 : 0;
    assert.ok(Math.abs(lo - (c[k] - b[k] / 2 + inset)) < 1e-6 && Math.abs(hi - (c[k] + b[k] / 2 - inset)) < 1e-6, `axis ${k}: ${lo}..${hi}`);
  }
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
