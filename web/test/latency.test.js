import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeLatencyProbe, percentile } from '../js/latency.js';
import { makeControlSender } from '../js/control-send.js';

test('percentile: nearest rank, NaN when empty', () => {
  assert.ok(Number.isNaN(percentile([], 50)));
  const list = [5, 1, 4, 2, 3];
  assert.equal(percentile(list, 50), 3);
  assert.equal(percentile(list, 99), 5);
  assert.equal(percentile(list, 0), 1);
  assert.deepEqual(list, [5, 1, 4, 2, 3], 'not sorted in place');
  assert.equal(percentile(Array.from({ length: 100 }, (_, i) => i + 1), 99), 99);
});

test('probe: a change is matched to the first frame whose control_seq covers it, then to its drawing', () => {
  const p = makeLatencyProbe();
  p.sent(3, 1000);
  assert.equal(p.frame(2, 1020), 0, 'a frame before it holds only the first two');
  assert.equal(p.frame(undefined, 1030), 0, 'a frame without control_seq matches nothing');
  assert.equal(p.frame(4, 1040), 1);
  assert.equal(p.frame(5, 1060), 0, 'matched once');
  p.drawn(1048);
  p.drawn(1070);
  const s = p.summary();
  assert.equal(s.count, 1);
  assert.deepEqual([s.toFrame.p50, s.toDraw.p50], [40, 48]);
  // two changes answered by one frame: each with its own send time
  p.sent(6, 2000);
  p.sent(7, 2010);
  assert.equal(p.frame(7, 2050), 2);
  p.drawn(2055);
  assert.deepEqual(p.summary().toFrame.n, 3);
  assert.equal(p.summary().toDraw.p99, 55);
});

test('probe: a new connection drops what was in flight, keeps the samples; a bounded history', () => {
  const p = makeLatencyProbe({ keep: 10, maxPending: 3 });
  p.sent(1, 0);
  p.reset();
  assert.equal(p.frame(5, 10), 0);
  assert.equal(p.waiting, 0);
  for (let k = 1; k <= 30; k++) {
    p.sent(k, k * 100);
    p.frame(k, k * 100 + k);
    p.drawn(k * 100 + k + 1);
  }
  const s = p.summary();
  assert.equal(s.count, 10);
  assert.equal(s.toFrame.p50, 25, 'the last ten: 21..30 ms');
  for (let k = 31; k <= 40; k++) p.sent(k, 0);
  assert.equal(p.waiting, 3, 'at most maxPending waiting for a frame');
  p.clear();
  assert.equal(p.summary().count, 0);
});

test('control sender: a change goes out at once, at most one per gap, within the budget', () => {
  const c = makeControlSender({ thresholdV: 0.05, minGapMs: 16, maxPerS: 200, share: 0.5 });
  const zero = [0, 0, 0, 0, 0];
  assert.equal(c.shouldSend(zero, 0), true, 'nothing sent yet');
  c.sent(zero, 0, true);
  assert.equal(c.shouldSend(zero, 20), false, 'unchanged');
  assert.equal(c.shouldSend([0.04, 0, 0, 0, 0], 20), true, 'leaving zero is a change however small');
  c.sent([0.2, 0, 0, 0, 0], 20, true);
  assert.equal(c.shouldSend([0.24, 0, 0, 0, 0], 40), false, 'within the threshold');
  assert.equal(c.shouldSend([5, 0, 0, 0, 0], 30), false, 'too soon after the last change');
  assert.equal(c.shouldSend([5, 0, 0, 0, 0], 36), true);
  // the heartbeat does not hold a change back
  c.sent([5, 0, 0, 0, 0], 36, false);
  assert.equal(c.shouldSend([-5, 0, 0, 0, 0], 37), true);
  // budget: half of 200 per second for all controls together
  assert.equal(c.budgetPerS, 100);
  const d = makeControlSender({ maxPerS: 10, share: 0.5, minGapMs: 0 });
  for (let i = 0; i < 5; i++) d.sent([i, 0, 0, 0, 0], i, true);
  assert.equal(d.perSecond(5), 5);
  assert.equal(d.shouldSend([9, 0, 0, 0, 0], 6), false, 'five a second is the budget');
  assert.equal(d.shouldSend([9, 0, 0, 0, 0], 1001), true, 'a second later there is room');
  d.reset(40);
  assert.equal(d.budgetPerS, 20);
  assert.equal(d.changed([0, 0, 0, 0, 0]), true, 'a new connection: everything is news');
});
