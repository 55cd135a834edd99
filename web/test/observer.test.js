import { test } from 'node:test';
import assert from 'node:assert/strict';
import { observeParam, observeUrl, observerBanner, inputRows, describeEvent, observerControlWords } from '../js/observer.js';
import { parseServerMessage } from '../js/protocol.js';
import { parseKeyboardLayout } from '../js/keyboard.js';
import { readFileSync } from 'node:fs';

test('?observe=ID makes the page an observer; anything else is a trainee page', () => {
  assert.equal(observeParam('?observe=3'), '3');
  assert.equal(observeParam('?observe=abc'), 'abc', 'kept as written: the server names it in its refusal');
  assert.equal(observeParam('?observe='), null);
  assert.equal(observeParam('?view=top'), null);
  assert.equal(observeUrl('ws://127.0.0.1:8080/ws', 3), 'ws://127.0.0.1:8080/ws?observe=3');
  assert.equal(observeUrl('wss://h/ws?x=1', '12'), 'wss://h/ws?x=1&observe=12');
});

test('the banner names the trainee and the session', () => {
  assert.equal(observerBanner({ session: 3, trainee: 'Ada' }), 'Watching Ada (session 3) - your keys do nothing');
  assert.equal(observerBanner({ session: 4, trainee: null }), 'Watching an unnamed trainee (session 4) - your keys do nothing');
});

test("the trainee's inputs are labelled with the layout's names and keys", () => {
  const layout = parseKeyboardLayout(JSON.parse(readFileSync(new URL('../../config/keyboard.json', import.meta.url))));
  const rows = inputRows(layout);
  assert.equal(rows.length, 5);
  assert.deepEqual(rows.map((r) => r.name), ['swing', 'boom', 'telescope', 'cable1', 'cable2']);
  assert.equal(rows[0].label, `${layout.signals[0].label} (${layout.signals[0].plus.label}/${layout.signals[0].minus.label})`);
  assert.deepEqual(inputRows(null).map((r) => r.label), ['swing', 'boom', 'telescope', 'cable1', 'cable2'], 'no layout: the signal names');
});

test('events in words', () => {
  assert.equal(describeEvent({ kind: 'grip', load: 'log-1' }, 12.34), '12.3 s  gripped log-1');
  assert.equal(describeEvent({ kind: 'rack_gate_hit', count: 2 }, 1), '1.0 s  hit the rack or the gate x2');
  assert.equal(describeEvent({ kind: 'lesson_step', step: 1 }), 'lesson: on to step 2');
  assert.equal(describeEvent({ kind: 'task_finished', completed: true }), 'task finished: completed');
  assert.equal(describeEvent({ kind: 'something_new' }), 'something new', 'an unknown kind is shown by name');
  assert.equal(describeEvent({ kind: 'lmi_warning', count: 1 }, 3), '3.0 s  load moment warning');
  assert.equal(describeEvent({ kind: 'lmi_cutout', count: 1 }), 'load moment cut-out');
  assert.equal(describeEvent({ kind: 'two_block', count: 2 }), 'anti-two-block: hoisting stopped x2');
  assert.equal(describeEvent({ kind: 'tip_over', count: 1 }), 'the crane tipped over');
});

test('the observer messages parse; malformed ones are named', () => {
  const hello = JSON.parse(readFileSync(new URL('./fixtures/hello.json', import.meta.url)));
  hello.observing = { session: 3, trainee: 'Ada', transport: 'corba', label: 'session 3 (t250)',
    may_send: ['ping', 'take_control'], faults: [{ name: 'burst_hose' }, 'junk'] };
  const h = parseServerMessage(JSON.stringify(hello));
  assert.ok(h.ok, h.error);
  assert.deepEqual(h.msg.observing, { session: 3, trainee: 'Ada', transport: 'corba', label: 'session 3 (t250)',
    maySend: ['ping', 'take_control'], faults: [{ name: 'burst_hose' }] });
  delete hello.observing;
  assert.equal(parseServerMessage(JSON.stringify(hello)).msg.observing, null, "a trainee's hello");
  const inputs = parseServerMessage('{"type":"inputs","seq":5,"volts":[1,0,0,-2,0]}');
  assert.deepEqual(inputs.msg, { type: 'inputs', seq: 5, volts: [1, 0, 0, -2, 0] });
  assert.match(parseServerMessage('{"type":"inputs","seq":5,"volts":[1,0]}').error, /inputs.volts: expected 5/);
  const ev = parseServerMessage('{"type":"events","seq":9,"t":0.5,"events":[{"kind":"grip","load":"log-1"}]}');
  assert.deepEqual(ev.msg, { type: 'events', seq: 9, t: 0.5, events: [{ kind: 'grip', load: 'log-1' }] });
  assert.match(parseServerMessage('{"type":"events","seq":9,"events":[{}]}').error, /events.events\[0\].kind/);
});

test('the watcher is told who drives in its own words, never the trainee\'s "You are driving"', () => {
  assert.equal(observerControlWords({ mode: 'trainee', text: 'You are driving', you: false }), 'the trainee is driving');
  assert.equal(observerControlWords({ mode: 'exclusive', holder: 'ann', you: true }), 'you hold the controls (exclusive control)');
  assert.equal(observerControlWords({ mode: 'shared', holder: 'instructor', you: false }), 'The instructor holds the controls (dual control)');
});
