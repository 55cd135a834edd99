// The HUD's angle: the swing read as left or right of straight ahead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatAngle } from '../js/hud.js';

test('swing angles show in (-180, 180]: 360 is 0, a full turn and a bit is a bit', () => {
  assert.equal(formatAngle(360), '0.0');
  assert.equal(formatAngle(359.96), '0.0', 'rounds to 360.0, which is 0');
  assert.equal(formatAngle(-0.01), '0.0', 'no "-0.0"');
  assert.equal(formatAngle(350), '-10.0');
  assert.equal(formatAngle(-190), '170.0');
  assert.equal(formatAngle(180), '180.0');
  assert.equal(formatAngle(-180), '180.0', '-180 is 180: the interval is open below');
  assert.equal(formatAngle(-179.96), '180.0');
  assert.equal(formatAngle(725.5), '5.5');
  assert.equal(formatAngle(12.345, 2), '12.35');
  assert.equal(formatAngle(NaN), '–');
  assert.equal(formatAngle(undefined), '–');
});
