// scene.js draws web/js/models/: a structure for each of the scene's boxes, one merged mesh
// per moving part, and few draw calls (meshes) in all.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseServerMessage } from '../js/protocol.js';

const fixture = (name) => readFileSync(new URL(`fixtures/${name}.json`, import.meta.url), 'utf8');
const hello = parseServerMessage(fixture('hello')).msg;
// read by the hello's display field names, as the page reads it
const display = parseServerMessage(fixture('display'), { displayFields: hello.display_fields }).msg;

let buildWorld;
before(async () => {
  const ctx2d = { createRadialGradient: () => ({ addColorStop() {} }), fillRect() {}, fillStyle: null };
  globalThis.document ??= { createElement: () => ({ getContext: () => ctx2d }) };
  ({ buildWorld } = await import('../js/scene.js'));
});

const meshes = (obj) => {
  let n = 0;
  obj.traverse((o) => { if (o.isMesh) n += 1; });
  return n;
};

test('scene models: a structure per scene box, each part one mesh, few draw calls', () => {
  const world = buildWorld(hello);
  const sc = hello.scene;
  const expected = [...sc.intake_walls.map((_, i) => `intake wall ${i + 1}`), 'deck', 'intake floor', 'gate', 'truck',
    'trash rack'];
  assert.deepEqual(world.structures.map((s) => s.name), expected);
  for (const name of ['carrier', 'superstructure', 'boom_base', 'fly', 'clam_head', 'arm_right', 'arm_left',
    'shell_right', 'shell_left']) {
    const g = world.scene.getObjectByName(name);
    assert.equal(meshes(g), 1, `${name}: one merged mesh`);
  }
  for (const s of world.structures) assert.ok(meshes(s.objects[0]) <= 3, s.name);
  // 30 meshes for this fixture (28 when the flat boxes were dropped, and the boom cylinder's
  // barrel and rod): a part that stops being merged shows here as more draw calls
  assert.ok(meshes(world.scene) <= 30, `${meshes(world.scene)} meshes`);
  assert.equal(world.update(display), true);
  world.place([...display.parts, ...display.loads.map((l) => [...l.position_m, ...l.orientation])], [8, 10]);
  assert.ok(world.eye());
});
