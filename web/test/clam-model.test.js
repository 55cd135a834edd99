// The clamshell grapple's merged meshes (web/js/models/clam-model.js), checked by their
// vertices and pieces, without WebGL: sized by the hello's clam, in the parts' frames of
// docs/websocket-protocol.md "Parts".
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseServerMessage } from '../js/protocol.js';

const hello = parseServerMessage(readFileSync(new URL('fixtures/hello.json', import.meta.url), 'utf8')).msg;
// the shipped model's clam (models/t250.json), with the bucket width the server now sends
const clam = { ...hello.machine.clam, bucket_width_m: 1.2 };
const DEG = Math.PI / 180;

let THREE, buildClamModel, clamDimensions, modelMaterial;
before(async () => {
  THREE = await import('three');
  ({ buildClamModel, clamDimensions } = await import('../js/models/clam-model.js'));
  ({ modelMaterial } = await import('../js/models/merge.js'));
});

const build = (c = clam) => buildClamModel(c, modelMaterial());

// the vertices of the named pieces of a mesh (all when names is null), as [x, y, z]
function vertices(mesh, names = null) {
  const pos = mesh.geometry.getAttribute('position');
  const out = [];
  for (const p of mesh.userData.pieces) {
    if (names && !names.includes(p.name)) continue;
    for (let i = p.first; i < p.first + p.count; i++) out.push([pos.getX(i), pos.getY(i), pos.getZ(i)]);
  }
  return out;
}
const range = (vs, k) => [Math.min(...vs.map((v) => v[k])), Math.max(...vs.map((v) => v[k]))];
const middle = (pieces, name) => {
  const ps = pieces.filter((p) => p.name === name);
  return [0, 1, 2].map((k) => ps.reduce((s, p) => s + (p.min[k] + p.max[k]) / (2 * ps.length), 0));
};
const near = (a, b, eps, what) => a.forEach((x, i) => assert.ok(Math.abs(x - b[i]) < eps, `${what}: ${a} != ${b}`));

test('clam model: one mesh per part, colours per vertex, every piece accounted for', () => {
  const m = build();
  for (const name of ['head', 'armRight', 'armLeft', 'shellRight', 'shellLeft']) {
    const mesh = m[name];
    assert.ok(mesh.isMesh, name);
    assert.equal(mesh.children.length, 0, `${name}: no child meshes`);
    assert.ok(mesh.geometry.getAttribute('color'), `${name}: vertex colours`);
    assert.ok(mesh.geometry.index, `${name}: indexed`);
    const counted = mesh.userData.pieces.reduce((s, p) => s + p.count, 0);
    assert.equal(counted, mesh.geometry.getAttribute('position').count, `${name}: pieces cover the vertices`);
  }
});

test('clam model: each arm runs from A to the hinge B, link1_length_m along -z; two arms, one near each end', () => {
  const m = build();
  for (const [arm, name] of [[m.armRight, 'right'], [m.armLeft, 'left']]) {
    // the bosses' axes at A (z = 0) and B (z = -link1): the arm's length between its pins
    const a = middle(arm.userData.pieces, 'boss A'), b = middle(arm.userData.pieces, 'boss B');
    near([a[0], a[2]], [0, 0], 1e-6, `${name} boss A`);
    near([b[0], b[2]], [0, -clam.link1_length_m], 1e-6, `${name} boss B`);
    assert.ok(Math.abs(Math.hypot(a[0] - b[0], a[2] - b[2]) - clam.link1_length_m) < 1e-6);
    // the plates run between the pins, at both ends of the width (a pair each side)
    const plates = vertices(arm, ['arm plate']);
    near(range(plates, 2), [-clam.link1_length_m, 0], 1e-6, `${name} plates`);
    const ys = range(plates, 1);
    assert.ok(ys[0] < -0.2 && ys[1] > 0.2, `${name}: arms at both ends (${ys})`);
    assert.ok(ys[1] < clam.bucket_width_m / 2, `${name}: within the bucket's width`);
    assert.equal(arm.userData.pieces.filter((p) => p.name === 'arm plate').length, 4, `${name}: two pairs of plates`);
  }
  // the left arms sit between the right's in y, so they do not cross at A
  const yr = vertices(m.armRight, ['arm plate']).map((v) => Math.abs(v[1]));
  const yl = vertices(m.armLeft, ['arm plate']).map((v) => Math.abs(v[1]));
  assert.ok(Math.max(...yl) < Math.min(...yr), `left arms |y| <= ${Math.max(...yl)}, right from ${Math.min(...yr)}`);
});

test('clam model: each shell\'s hinge B and lip where the protocol puts them, bucket_width_m across', () => {
  const m = build();
  const tc = clam.theta2_closed_deg * DEG;
  const B = [clam.link2_length_m * Math.sin(tc), clam.link2_length_m * Math.cos(tc)];
  for (const [shell, sign, name] of [[m.shellRight, 1, 'right'], [m.shellLeft, -1, 'left']]) {
    // hinge B: (+-link2 sin θc, 0, link2 cos θc), the middle of the bosses at both ends
    near(middle(shell.userData.pieces, 'hinge boss'), [sign * B[0], 0, B[1]], 1e-6, `${name} hinge`);
    near(shell.userData.hinge, [sign * B[0], 0, B[1]], 1e-9, `${name} userData.hinge`);
    // the lip: the teeth's points at (0, y, -lip), the lowest of the bucket
    const body = vertices(shell, ['side plate', 'back plate', 'cutting edge', 'top plate', 'tooth']);
    assert.ok(Math.abs(range(body, 2)[0] + clam.lip_length_m) < 1e-6, `${name}: lowest point ${range(body, 2)[0]}`);
    const points = vertices(shell, ['tooth']).filter((v) => Math.abs(v[2] + clam.lip_length_m) < 1e-6);
    assert.ok(points.length > 0 && points.every((v) => Math.abs(v[0]) < 1e-6), `${name}: teeth end at x = 0`);
    // the width: side plate to side plate
    near(range(vertices(shell, ['side plate', 'back plate']), 1), [-clam.bucket_width_m / 2, clam.bucket_width_m / 2], 1e-6,
      `${name} width`);
    // a real bucket: side plates, a curved back, a cutting edge and teeth
    for (const piece of ['side plate', 'back plate', 'top plate', 'cutting edge', 'tooth', 'pivot lug']) {
      assert.ok(shell.userData.pieces.some((p) => p.name === piece), `${name}: ${piece}`);
    }
    // the back bows out of the chord B-lip (curved), but not far past the server's contact
    // spheres (0.12 m round it)
    const back = vertices(shell, ['back plate']);
    const chord = [-B[0], -clam.lip_length_m - B[1]], len = Math.hypot(...chord);
    const out = back.map((v) => ((sign * v[0] - B[0]) * chord[1] - (v[2] - B[1]) * chord[0]) / len);
    const bow = Math.max(...out.map((x) => -x), ...out);
    assert.ok(bow > 0.05 && bow < 0.2, `${name}: the back bows ${bow} m out of its chord`);
  }
  // another hello's clam: sizes follow it
  const small = build({ ...clam, link1_length_m: 1.0, link2_length_m: 0.8, lip_length_m: 0.6, bucket_width_m: 0.9 });
  near(range(vertices(small.shellRight, ['side plate']), 1), [-0.45, 0.45], 1e-6, 'small width');
  assert.ok(Math.abs(range(vertices(small.shellRight, ['tooth']), 2)[0] + 0.6) < 1e-6);
  near(middle(small.armRight.userData.pieces, 'boss B'), [0, 0, -1.0], 1e-6, 'small arm');
  // a hello without bucket_width_m: as wide as link 2 is long
  const { bucket_width_m: _omit, ...older } = clam;
  assert.equal(clamDimensions(older).width, clam.link2_length_m);
});

test('clam model: the two closed shells meet on x = 0 and do not run into each other', () => {
  const m = build();
  const body = ['side plate', 'back plate', 'cutting edge', 'top plate', 'tooth', 'hinge boss'];
  const right = vertices(m.shellRight, body), left = vertices(m.shellLeft, body);
  // closed, both shells' frames are the clam's at C: the right's body on x >= 0, the left's
  // on x <= 0, and they touch (the mouths and the teeth's points on x = 0)
  assert.ok(range(right, 0)[0] > -0.02 && range(right, 0)[0] < 0.01, `right reaches x = ${range(right, 0)[0]}`);
  assert.ok(range(left, 0)[1] < 0.02 && range(left, 0)[1] > -0.01, `left reaches x = ${range(left, 0)[1]}`);
  // what crosses x = 0 (the lugs on the pin at C) interleaves in y: no lug of one shell
  // shares a slice of y with the other's, and the other's body keeps out of each lug
  const lugs = (shell) => shell.userData.pieces.filter((p) => p.name === 'pivot lug' || p.name === 'lug web');
  for (const [a, b, other] of [[m.shellRight, m.shellLeft, left], [m.shellLeft, m.shellRight, right]]) {
    for (const p of lugs(a)) {
      for (const q of lugs(b)) {
        const overlap = Math.min(p.max[1], q.max[1]) - Math.max(p.min[1], q.min[1]);
        assert.ok(overlap <= 1e-6, `lugs share ${overlap} m of y`);
      }
      const inside = other.filter((v) => v.every((x, k) => x > p.min[k] + 0.01 && x < p.max[k] - 0.01));
      assert.equal(inside.length, 0, `the other shell's body inside a lug at y ${p.min[1]}..${p.max[1]}`);
    }
  }
  // nothing of the right shell (pulley and pin aside: link 3) reaches more than 3 cm into the
  // left's side, where its body is
  const crossing = vertices(m.shellRight, body.concat(['pivot lug', 'lug web'])).filter((v) => v[0] < -0.03);
  for (const v of crossing) {
    const near = left.filter((w) => Math.abs(w[1] - v[1]) < 0.01 && Math.hypot(w[0] - v[0], w[2] - v[2]) < 0.05);
    assert.equal(near.length, 0, `right shell at ${v} among the left's`);
  }
});

test('clam model: the head at A carries the pin through all four arms and the rope socket above it', () => {
  const m = build();
  const pin = m.head.userData.pieces.find((p) => p.name === 'pin A');
  const armY = Math.max(...vertices(m.armRight, ['arm plate']).map((v) => Math.abs(v[1])));
  assert.ok(pin.max[1] >= armY - 1e-6 && pin.min[1] <= -armY + 1e-6, 'the pin reaches the outer plates');
  near([(pin.min[0] + pin.max[0]) / 2, (pin.min[2] + pin.max[2]) / 2], [0, 0], 1e-6, 'pin at A');
  const socket = vertices(m.head, ['socket']);
  assert.ok(range(socket, 2)[0] > 0, 'the socket above A');
  // the head's body stays between the left arms (it does not run into them)
  const body = vertices(m.head, ['cheek', 'body']);
  const leftArm = Math.min(...vertices(m.armLeft, ['arm plate']).map((v) => Math.abs(v[1])));
  assert.ok(Math.max(...body.map((v) => Math.abs(v[1]))) < leftArm);
});

test('clam model: per-kind materials (high quality) give one group per kind', async () => {
  const { qualitySettings } = await import('../js/quality.js');
  const m = buildClamModel(clam, modelMaterial({}, qualitySettings('high')));
  const shell = m.shellRight;
  assert.ok(Array.isArray(shell.material) && shell.material.length === 2, 'paint and steel');
  const total = shell.geometry.groups.reduce((s, g) => s + g.count, 0);
  assert.equal(total, shell.geometry.index.count);
  // the pieces' vertex ranges still name their own vertices
  const pos = shell.geometry.getAttribute('position');
  for (const p of shell.userData.pieces) {
    for (let i = p.first; i < p.first + p.count; i++) {
      assert.ok(pos.getY(i) >= p.min[1] - 1e-6 && pos.getY(i) <= p.max[1] + 1e-6, p.name);
    }
  }
});
