import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MARKER, forceColor, forceLevel, isRackOrGate, updateMarkers, markerLook } from '../js/markers.js';

const contact = (x, extra = {}) => ({ position_m: [x, 0, -5], force_N: 1000, pair: 'LoadWorld', solid: 'Floor', load: 0, ...extra });

test('force colour: green when light, yellow in between, red when heavy (log scale)', () => {
  assert.equal(forceLevel(0), 0);
  assert.equal(forceLevel(MARKER.forceLowN), 0);
  assert.equal(forceLevel(MARKER.forceHighN * 10), 1);
  assert.ok(Math.abs(forceLevel(Math.sqrt(MARKER.forceLowN * MARKER.forceHighN)) - 0.5) < 1e-9);
  const [r0, g0] = forceColor(10);
  assert.ok(g0 > r0, 'green');
  const [r1, g1, b1] = forceColor(Math.sqrt(MARKER.forceLowN * MARKER.forceHighN));
  assert.ok(r1 > 0.9 && g1 > 0.8 && b1 < 0.3, 'yellow');
  const [r2, g2] = forceColor(1e6);
  assert.ok(r2 > 0.9 && g2 < 0.3, 'red');
});

test('rack and gate are recognised whatever the case', () => {
  for (const s of ['Rack', 'rack', 'GATE', 'trash_rack', 'trash rack', 'gate']) assert.equal(isRackOrGate(s), true, s);
  for (const s of ['Deck', 'intake floor', 'intake wall', null, undefined]) assert.equal(isRackOrGate(s), false, String(s));
});

test('a new contact flashes and fades, even while it lasts; frame after frame it is one marker', () => {
  let m = updateMarkers([], [contact(1)], 0);
  assert.equal(m.length, 1);
  assert.equal(m[0].born, 0);
  assert.equal(markerLook(m[0], 0).flash, 1);
  assert.equal(markerLook(m[0], 0).opacity, 1);
  for (let t = 50; t <= 3000; t += 50) m = updateMarkers(m, [contact(1 + t / 100000)], t);
  assert.equal(m.length, 1, 'merged, not one per frame');
  assert.equal(m[0].born, 0, 'no new flash while it lasts');
  const mid = markerLook(m[0], MARKER.flashMs + MARKER.fadeMs / 2);
  assert.ok(mid.opacity > 0.3 && mid.opacity < 0.7, `fading: ${mid.opacity}`);
  assert.equal(markerLook(m[0], 3000).alive, false, 'a resting contact is not marked for ever');
});

test('a contact that ends and comes back flashes again; a harder push flashes again', () => {
  let m = updateMarkers([], [contact(1)], 0);
  m = updateMarkers(m, [], 100);
  assert.equal(m.length, 1, 'still fading');
  m = updateMarkers(m, [contact(1)], 100 + MARKER.gapMs + 50);
  assert.equal(m.length, 1);
  assert.equal(m[0].born, 100 + MARKER.gapMs + 50, 'a new impact');
  m = updateMarkers(m, [contact(1, { force_N: 5000 })], 1000);
  assert.equal(m[0].born, 1000, 'five times the force');
  m = updateMarkers(m, [], 1000 + MARKER.flashMs + MARKER.fadeMs + 1);
  assert.equal(m.length, 0, 'ended and faded: dropped');
});

test('different places, pairs or solids are different markers; rack and gate are bigger', () => {
  const m = updateMarkers([], [contact(0), contact(3), contact(0, { pair: 'ClamWorld', solid: 'Rack', load: null })], 0);
  assert.equal(m.length, 3);
  const rack = m.find((x) => x.solid === 'Rack');
  const floor = m.find((x) => x.solid === 'Floor');
  assert.equal(rack.big, true);
  assert.ok(markerLook(rack, 500).radius > MARKER.bigFactor * markerLook(floor, 500).radius * 0.99);
  // harder hits are bigger too
  const soft = updateMarkers([], [contact(0, { force_N: 100 })], 0)[0];
  const hard = updateMarkers([], [contact(0, { force_N: 1e5 })], 0)[0];
  assert.ok(markerLook(hard, 500).radius > markerLook(soft, 500).radius);
});

test('at most MARKER.max markers, the newest kept', () => {
  let m = [];
  for (let i = 0; i < MARKER.max + 10; i++) m = updateMarkers(m, [contact(i * 2)], i);
  assert.equal(m.length, MARKER.max);
  assert.equal(m[0].position_m[0], (MARKER.max + 9) * 2);
});
