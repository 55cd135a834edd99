// web/js/load-moment.js: the gauge's level, words and bar from a display frame against the
// server's levels, and the cut-out and tip-over banners.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  loadMomentLevels, loadMomentView, loadMomentWarnings, tippedText, CUTOUT_TEXT,
} from '../js/load-moment.js';
import { parseServerMessage } from '../js/protocol.js';

const fixture = (name) => readFileSync(new URL(`fixtures/${name}.json`, import.meta.url), 'utf8');
const LEVELS = { warning_pct: 90, cutout_pct: 100 };
const frame = (extra = {}) => ({ load_moment_pct: 43.3, hook_load_kg: 1300, rated_kg: 3000, radius_m: 12.4, lmi: 'ok',
  tipped_over: false, ...extra });

test('levels come from the hello, as the server sends them', () => {
  const hello = parseServerMessage(fixture('hello')).msg;
  assert.deepEqual(loadMomentLevels(hello.machine), { warning_pct: 90, cutout_pct: 100 });
  assert.equal(loadMomentLevels({ load_moment: null }), null);
  assert.equal(loadMomentLevels(undefined), null);
});

test('the gauge: "72 %", "1.3 t of 3.0 t at 12.4 m", the bar and its marks', () => {
  const v = loadMomentView(frame({ load_moment_pct: 72.4 }), LEVELS);
  assert.equal(v.visible, true);
  assert.equal(v.level, 'ok');
  assert.equal(v.pctText, '72 %');
  assert.equal(v.text, '1.3 t of 3.0 t at 12.4 m');
  assert.ok(Math.abs(v.fraction - 72.4 / 120) < 1e-12);
  assert.ok(Math.abs(v.warningAt - 0.75) < 1e-12);
  assert.ok(Math.abs(v.cutoutAt - 100 / 120) < 1e-12);
  assert.equal(loadMomentView(frame({ load_moment_pct: 93, lmi: 'warning' }), LEVELS).level, 'warn');
  const over = loadMomentView(frame({ load_moment_pct: 999, lmi: 'cutout' }), LEVELS);
  assert.equal(over.level, 'danger');
  assert.equal(over.pctText, '999 %');
  assert.equal(over.fraction, 1, 'the bar stops at its end');
  assert.equal(loadMomentView(frame({ rated_kg: 0 }), LEVELS).text, '1.3 t (no rating here) at 12.4 m');
});

test("the gauge's colour is the server's state, never a threshold of the browser's", () => {
  // the limiter lets go 5 points below where it set: 97 % is still a cut-out
  assert.equal(loadMomentView(frame({ load_moment_pct: 97, lmi: 'cutout' }), LEVELS).level, 'danger');
  assert.equal(loadMomentView(frame({ load_moment_pct: 87, lmi: 'warning' }), LEVELS).level, 'warn');
  // a server without levels in its hello: the colour is its state's
  const bare = loadMomentView(frame({ load_moment_pct: 95, lmi: 'warning' }), null);
  assert.equal(bare.level, 'warn');
  assert.equal(bare.warningAt, null);
  assert.equal(bare.cutoutAt, null);
});

test('no reading, no gauge (a server without the indicator)', () => {
  assert.deepEqual(loadMomentView({ display: [] }, LEVELS), { visible: false });
  assert.deepEqual(loadMomentView(undefined, LEVELS), { visible: false });
});

test('banners: the cut-out, a tip-over (with the key to restart), the warning', () => {
  assert.deepEqual(loadMomentWarnings(frame()), []);
  const cut = loadMomentWarnings(frame({ lmi: 'cutout', load_moment_pct: 101 }));
  assert.deepEqual(cut.map((w) => [w.id, w.level]), [['lmi', 'danger']]);
  assert.equal(cut[0].text, CUTOUT_TEXT);
  assert.match(cut[0].text, /^Load moment limit: hoist up, telescope out and boom down stopped — lower the load or bring the boom in$/);
  const warn = loadMomentWarnings(frame({ lmi: 'warning', load_moment_pct: 92.6 }));
  assert.deepEqual(warn.map((w) => [w.id, w.level, w.text]), [['lmi', 'warn', 'Load moment 93 %: near the limit']]);
  // a tip-over is the only banner: the limiter no longer matters
  const tipped = loadMomentWarnings(frame({ tipped_over: true, lmi: 'cutout' }));
  assert.deepEqual(tipped.map((w) => [w.id, w.level, w.text]), [['tipped', 'danger', 'The crane has tipped over — press R to restart']]);
  assert.equal(loadMomentWarnings(frame({ tipped_over: true }), { restartKey: 'Backspace' })[0].text,
    'The crane has tipped over — press Backspace to restart');
  assert.doesNotMatch(tippedText(null), /press/, 'an observer or a replay cannot restart');
});
