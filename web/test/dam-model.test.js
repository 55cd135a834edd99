// The dam intake's merged meshes (web/js/models/dam-model.js), checked by their vertices
// and vertex colours, without WebGL.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseServerMessage } from '../js/protocol.js';

const hello = parseServerMessage(readFileSync(new URL('fixtures/hello.json', import.meta.url), 'utf8')).msg;
const sc = hello.scene;
const deckTop = sc.deck.center_m[2] + sc.deck.size_m[2] / 2;

let THREE, dam, modelMaterial;
before(async () => {
  THREE = await import('three');
  dam = await import('../js/models/dam-model.js');
  ({ modelMaterial } = await import('../js/models/merge.js'));
});

// the vertices painted `hex`, in the base frame (the mesh's own placement applied)
function verticesOf(mesh, hex) {
  mesh.updateMatrixWorld(true);
  const c = new THREE.Color(hex), v = new THREE.Vector3();
  const pos = mesh.geometry.getAttribute('position'), col = mesh.geometry.getAttribute('color');
  const out = [];
  for (let i = 0; i < pos.count; i++) {
    if (Math.abs(col.getX(i) - c.r) < 1e-4 && Math.abs(col.getY(i) - c.g) < 1e-4 && Math.abs(col.getZ(i) - c.b) < 1e-4) {
      v.fromBufferAttribute(pos, i).applyMatrix4(mesh.matrixWorld);
      out.push([v.x, v.y, v.z]);
    }
  }
  return out;
}
const range = (vs, k) => [Math.min(...vs.map((p) => p[k])), Math.max(...vs.map((p) => p[k]))];
const inBox = (p, b, eps = 1e-6) => [0, 1, 2].every((k) => Math.abs(p[k] - b.center_m[k]) <= b.size_m[k] / 2 + eps);

test('dam model: the truck\'s bed fills hello.scene.truck_bed; its cab and wheels are outside it, on the deck', () => {
  const bed = sc.truck_bed;
  const truck = dam.truckMesh(bed, deckTop, modelMaterial());
  const tray = verticesOf(truck, dam.COLORS.bed);
  assert.ok(tray.length > 0);
  // the tray within the bed box, except the headboard's lip above it
  for (const p of tray) assert.ok(inBox(p, { ...bed, size_m: [bed.size_m[0], bed.size_m[1], bed.size_m[2] + 0.6] }), `${p}`);
  for (const k of [0, 1]) near(range(tray, k), [bed.center_m[k] - bed.size_m[k] / 2, bed.center_m[k] + bed.size_m[k] / 2]);
  // the cab: wholly outside the bed's box, in front of it, on the deck's footprint
  const cab = verticesOf(truck, dam.COLORS.truckCab);
  assert.ok(cab.length > 0);
  assert.ok(range(cab, 0)[0] > bed.center_m[0] + bed.size_m[0] / 2, 'the cab in front of the bed');
  for (const p of cab) assert.ok(inBox([p[0], p[1], sc.deck.center_m[2]], sc.deck), `cab point ${p} over the deck`);
  // the wheels touch the deck, none goes through it
  const tyres = verticesOf(truck, dam.COLORS.tyre);
  assert.ok(Math.abs(range(tyres, 2)[0] - deckTop) < 1e-6, `lowest tyre point ${range(tyres, 2)[0]}`);
  assert.ok(range(tyres, 2)[1] < bed.center_m[2] - bed.size_m[2] / 2, 'the wheels under the bed');
  assert.ok(range(tyres, 0)[1] > bed.center_m[0] + bed.size_m[0] / 2, 'a front axle under the cab');
});

test('dam model: the truck\'s wheels: a tyre with a rim and a hub standing proud of its outer face', () => {
  const bed = sc.truck_bed;
  const truck = dam.truckMesh(bed, deckTop, modelMaterial());
  const r = truck.userData.wheelRadius;
  // the front (cab's) axle, its left wheel: the part of it in front of the axle
  const tyres = verticesOf(truck, dam.COLORS.tyre);
  const front = range(tyres, 0)[1] - r;
  const near = (hex) => verticesOf(truck, hex).filter((p) => p[0] >= front - 1e-6 && p[1] > bed.center_m[1]);
  const tyre = near(dam.COLORS.tyre), rim = near(dam.COLORS.rim), hub = near(dam.COLORS.hub);
  assert.ok(rim.length > 0 && hub.length > 0);
  const reach = (vs) => range(vs, 0)[1] - front;
  assert.ok(Math.abs(reach(tyre) - r) < 1e-5);
  assert.ok(reach(rim) < 0.7 * r && reach(rim) > 0.4 * r && reach(hub) < 0.5 * reach(rim), 'rim inside the tyre, hub inside the rim');
  assert.ok(range(rim, 1)[1] > range(tyre, 1)[1] && range(hub, 1)[1] > range(rim, 1)[1], 'proud of the outer face');
  // the rim and hub at the wheel's centre height
  near(range(rim, 2), [deckTop + r - 0.62 * r, deckTop + r + 0.62 * r], 1e-3);
});

test('dam model: piers fill their walls with a nose upstream; the deck keeps its box and a kerb outside the bay', () => {
  const wall = sc.intake_walls[0];
  const pier = dam.pierMesh(wall, modelMaterial(), 1);
  const body = verticesOf(pier, dam.COLORS.concrete);
  for (const k of [0, 1, 2]) near(range(body, k), [wall.center_m[k] - wall.size_m[k] / 2, wall.center_m[k] + wall.size_m[k] / 2]);
  const nose = verticesOf(pier, dam.COLORS.pierNose);
  assert.ok(range(nose, 0)[1] > wall.center_m[0] + wall.size_m[0] / 2, 'the nose upstream (+x)');
  const deck = dam.deckMesh(sc.deck, modelMaterial(), [-3.5, 3.5]);
  const slab = verticesOf(deck, dam.COLORS.concrete);
  near(range(slab, 2), [sc.deck.center_m[2] - sc.deck.size_m[2] / 2, deckTop]);
  const kerb = verticesOf(deck, dam.COLORS.kerb);
  assert.ok(kerb.every((p) => Math.abs(p[1]) >= 3.5 - 1e-6), 'no kerb across the intake bay');
  assert.ok(range(kerb, 0)[1] <= sc.deck.center_m[0] + sc.deck.size_m[0] / 2 + 1e-6);
});

test('dam model: the gate keeps its box, stiffened by ribs', () => {
  const gate = dam.gateMesh(sc.gate, modelMaterial());
  const plate = verticesOf(gate, dam.COLORS.gate);
  for (const k of [0, 1, 2]) near(range(plate, k), [sc.gate.center_m[k] - sc.gate.size_m[k] / 2, sc.gate.center_m[k] + sc.gate.size_m[k] / 2]);
  assert.ok(verticesOf(gate, dam.COLORS.gateRib).length >= 24 * dam.VISUAL.gateRibs);
});

function near(a, b, eps = 1e-5) {
  a.forEach((x, i) => assert.ok(Math.abs(x - b[i]) < eps, `${a} != ${b}`));
}
