// Materials per kind of surface and the quality's look (web/js/materials.js, models/merge.js,
// environment.js), without WebGL: which material each quality gets, a merged part's groups
// per kind, the water's surface following the turbidity and moving with time.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { qualitySettings } from '../js/quality.js';
import { waterLook } from '../js/water-look.js';

let THREE, mat, merge, env;
before(async () => {
  THREE = await import('three');
  mat = await import('../js/materials.js');
  merge = await import('../js/models/merge.js');
  env = await import('../js/environment.js');
});
const low = qualitySettings('low'), high = qualitySettings('high');

test('low: one material lit per vertex; high: a PBR material per kind with its roughness and metalness', () => {
  const one = merge.modelMaterial({}, low);
  assert.ok(one instanceof mat.GouraudMaterial);
  assert.equal(one.vertexColors, true);
  assert.ok(merge.modelMaterial() instanceof mat.GouraudMaterial, 'no look: low');
  const kinds = merge.modelMaterial({ side: THREE.DoubleSide }, high);
  assert.deepEqual(Object.keys(kinds), mat.KINDS);
  for (const k of mat.KINDS) {
    assert.ok(kinds[k].isMeshStandardMaterial, k);
    assert.equal(kinds[k].roughness, mat.SURFACES[k].roughness, k);
    assert.equal(kinds[k].metalness, mat.SURFACES[k].metalness, k);
    assert.equal(kinds[k].side, THREE.DoubleSide, k);
  }
  assert.ok(mat.SURFACES.concrete.roughness > 0.9 && mat.SURFACES.concrete.metalness === 0);
  assert.ok(mat.SURFACES.paint.roughness === 0.5 && mat.SURFACES.paint.metalness > 0 && mat.SURFACES.paint.metalness < 0.5);
  assert.ok(mat.surfaceMaterial('wood', high, { color: 0x5b3a22 }).isMeshStandardMaterial);
  assert.ok(mat.surfaceMaterial('wood', low, { color: 0x5b3a22 }) instanceof mat.GouraudMaterial);
});

test('a see-through copy of a per-vertex material keeps its lighting and glow', () => {
  const m = new mat.GouraudMaterial({ color: 0x808080, emissive: 0xffb020, emissiveIntensity: 0.55 });
  const c = m.clone();
  assert.ok(c instanceof mat.GouraudMaterial);
  assert.equal(c.emissive.getHex(), 0xffb020);
  assert.equal(c.emissiveIntensity, 0.55);
  assert.notEqual(c.emissive, m.emissive);
  // the lights' uniforms: the hemisphere's colours and the sun's, divided by pi as Lambert does
  const hemi = new THREE.HemisphereLight(0xffffff, 0x000000, Math.PI);
  const sun = new THREE.DirectionalLight(0xffffff, Math.PI);
  sun.position.set(0, 10, 0);
  mat.setLights(hemi, sun);
  assert.ok(Math.abs(mat.LIGHT.sky.value.r - 1) < 1e-9 && mat.LIGHT.ground.value.r === 0);
  assert.deepEqual(mat.LIGHT.sunDir.value.toArray(), [0, 1, 0]);
});

test('a merged part: one group per kind present at high quality, none at low', () => {
  const kinds = merge.surfaceKinds({ body: 0xe0b020, tyre: 0x1e1e1e, glass: 0x24323f }, { tyre: 'rubber', glass: 'glass' });
  assert.equal(kinds.get(0xe0b020), 'paint');
  const build = (material) => {
    const p = merge.pieces(kinds);
    p.box([1, 1, 1], 0x1e1e1e, [0, 0, 0]);
    p.box([1, 1, 1], 0xe0b020, [2, 0, 0]);
    p.box([1, 1, 1], 0x24323f, [4, 0, 0]);
    p.box([1, 1, 1], 0xe0b020, [6, 0, 0]);
    return p.mesh(material);
  };
  const one = build(merge.modelMaterial({}, low));
  assert.equal(one.geometry.groups.length, 0);
  assert.ok(!Array.isArray(one.material));
  const per = merge.modelMaterial({}, high);
  const m = build(per);
  assert.deepEqual(m.material, [per.paint, per.rubber, per.glass], 'in KINDS order');
  assert.deepEqual(m.geometry.groups.map((g) => g.materialIndex), [0, 1, 2]);
  assert.deepEqual(m.geometry.groups.map((g) => g.count), [72, 36, 36]);
  assert.equal(m.geometry.groups[2].start + m.geometry.groups[2].count, m.geometry.index.count);
  // the painted pieces' vertices lie in the painted group
  const pos = m.geometry.getAttribute('position'), idx = m.geometry.index;
  for (let i = 0; i < 72; i++) {
    const x = pos.getX(idx.getX(i));
    assert.ok((x >= 1.5 && x <= 2.5) || (x >= 5.5 && x <= 6.5), `painted group vertex at x = ${x}`);
  }
  // a part of one kind only: one material, no groups
  const p = merge.pieces(kinds);
  p.box([1, 1, 1], 0xe0b020, [0, 0, 0]);
  const single = p.mesh(per);
  assert.equal(single.material, per.paint);
  assert.equal(single.geometry.groups.length, 0);
});

test('water: translucent in the turbidity\'s colour and opacity, moving with time, at both qualities', () => {
  for (const look of [low, high]) {
    const w = env.createWater([40, 30], look);
    assert.equal(w.mesh.material.transparent, true);
    assert.equal(w.mesh.material.depthWrite, false);
    assert.equal(w.mesh.castShadow, false);
    for (const t of [0, 1]) {
      const l = waterLook(t);
      w.setLook(l);
      assert.equal(w.mesh.material.opacity, l.surfaceOpacity);
      assert.equal(w.mesh.material.color.getHex(), l.surfaceColor);
    }
    const state = () => (look.waterWaves ? w.mesh.material.normalMap.offset.toArray() : [w.mesh.material.time.value]);
    w.animate(1);
    const a = state();
    w.animate(2.5);
    assert.notDeepEqual(state(), a, `${look.quality}: the surface moves`);
    w.dispose();
  }
  // low: a grid for ripples computed per vertex (its spacing: environment.test.js), high:
  // one quad and a normal map
  const lowWater = env.createWater([40, 30], low);
  assert.equal(lowWater.mesh.geometry.parameters.widthSegments, Math.round(40 / env.RIPPLE.spacing_m));
  assert.equal(env.createWater([40, 30], high).mesh.geometry.parameters.widthSegments, 1);
});

test('sky: a dome at the far plane, never culled, drawn after the opaque world', () => {
  const sky = env.createSky(new THREE.Vector3(40, 60, -25));
  assert.equal(sky.frustumCulled, false);
  assert.equal(sky.material.depthWrite, false);
  assert.ok(sky.renderOrder > 0);
  assert.ok(Math.abs(sky.material.uniforms.sunDir.value.length() - 1) < 1e-9);
  assert.match(sky.material.vertexShader, /gl_Position = p\.xyww/);
});
