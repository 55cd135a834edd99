// scene.js with web/js/models/ and with the earlier boxes (?models=0): the same parts and
// structures, placed alike, and few more draw calls (meshes) for the models.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseServerMessage } from '../js/protocol.js';

const fixture = (name) => readFileSync(new URL(`fixtures/${name}.json`, import.meta.url), 'utf8');
const hello = parseServerMessage(fixture('hello')).msg;
const display = parseServerMessage(fixture('display')).msg;

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

test('scene models: the same structures and parts as the boxes, each part a mesh or two', () => {
  const boxes = buildWorld(hello, { models: false });
  const models = buildWorld(hello, { models: true });
  assert.deepEqual(models.structures.map((s) => s.name), boxes.structures.map((s) => s.name));
  for (const name of ['carrier', 'superstructure', 'boom_base', 'fly']) {
    const g = models.scene.getObjectByName(name);
    assert.equal(meshes(g), 1, `${name}: one merged mesh`);
  }
  for (const s of models.structures) assert.ok(meshes(s.objects[0]) <= 3, s.name);
  // draw calls at most those of the boxes (the carrier's many boxes and the ring are one mesh now)
  assert.ok(meshes(models.scene) <= meshes(boxes.scene), `${meshes(models.scene)} meshes vs ${meshes(boxes.scene)}`);
  // both draw the frame
  for (const w of [boxes, models]) {
    assert.equal(w.update(display), true);
    w.place([...display.parts, ...display.loads.map((l) => [...l.position_m, ...l.orientation])], [8, 10]);
    assert.ok(w.eye());
  }
});
