import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lessonView, lessonOffer, keysFor, scenarioUrl, LESSON_CHOICE_KEY } from '../js/lesson.js';
import { setKeyboardLayout } from '../js/input.js';
import { parseKeyboardLayout } from '../js/keyboard.js';

// the key names come from the shipped layout the server sends (config/keyboard.json)
setKeyboardLayout(parseKeyboardLayout(JSON.parse(readFileSync(new URL('../../config/keyboard.json', import.meta.url)))));

const LESSON = {
  title: 'First lesson: pick up a log',
  steps: [
    { goal: 'Lower the clam', controls: [{ does: 'lower', signals: [[3, -1], [4, -1]] }], check: { kind: 'clam_lowered', by_m: 1.5 } },
    { goal: 'Open the jaws', controls: [{ does: 'open', signals: [[3, 1], [4, -1]] }], check: { kind: 'jaws_opened' } },
    { goal: 'Close on the log', controls: [{ does: 'lower', signals: [[3, -1], [4, -1]] }, { does: 'close', signals: [[3, -1], [4, 1]] }], check: { kind: 'load_gripped' } },
  ],
};

test('keysFor turns [signal, direction] pairs into the keys that drive them', () => {
  assert.equal(keysFor([[3, -1], [4, 1]]), 'A + E');   // closes the jaws
  assert.equal(keysFor([[3, 1], [4, -1]]), 'Q + D');   // opens them
  assert.equal(keysFor([[0, 1]]), '←');
  assert.equal(keysFor(undefined), '');
  // a move taught slow names the layout's half-speed key first
  assert.equal(keysFor([[3, 1], [4, -1]], true), 'Shift + Q + D');
});

test('lessonView shows the half-speed key on a control marked half_speed', () => {
  const slow = { title: 't', steps: [{ goal: 'Open', controls: [{ does: 'open', signals: [[3, 1], [4, -1]], half_speed: true }] }] };
  assert.deepEqual(lessonView(slow, null).steps[0].hints, [{ does: 'open', keys: 'Shift + Q + D' }]);
});

test('lessonView marks steps done, now and next from the server\'s progress', () => {
  const v = lessonView(LESSON, { step: 1, steps: 3, finished: false, progress: 0.5, setbacks: 0 });
  assert.equal(v.counter, 'step 2 of 3');
  assert.deepEqual(v.steps.map((s) => s.state), ['done', 'now', 'next']);
  assert.deepEqual(v.steps[2].hints, [{ does: 'lower', keys: 'A + D' }, { does: 'close', keys: 'A + E' }]);
  assert.equal(v.progress, 0.5);
  assert.equal(v.finished, false);
});

test('lessonView before the first frame and once finished', () => {
  assert.deepEqual(lessonView(LESSON, null).steps.map((s) => s.state), ['now', 'next', 'next']);
  const done = lessonView(LESSON, { step: 3, steps: 3, finished: true, progress: 1 });
  assert.equal(done.finished, true);
  assert.equal(done.counter, 'all 3 steps done');
  assert.ok(done.steps.every((s) => s.state === 'done'));
});

test('lessonOffer: offered by the task until done or skipped in this browser', () => {
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  const scene = { task: { title: 'dam', lesson: 'first_lesson' } };
  assert.equal(lessonOffer(scene, storage), 'first_lesson');
  assert.equal(lessonOffer({ task: { title: 'dam' } }, storage), null);
  assert.equal(lessonOffer(null, storage), null);
  store.set(LESSON_CHOICE_KEY, 'skipped');
  assert.equal(lessonOffer(scene, storage), null);
  store.set(LESSON_CHOICE_KEY, 'done');
  assert.equal(lessonOffer(scene, storage), null);
  const blocked = { getItem() { throw new Error('blocked'); } };
  assert.equal(lessonOffer(scene, blocked), 'first_lesson');
});

test('scenarioUrl sets or removes the scenario and keeps the rest', () => {
  assert.equal(scenarioUrl('ws://h:1/ws?class_code=x', 'first_lesson'), 'ws://h:1/ws?class_code=x&scenario=first_lesson');
  assert.equal(scenarioUrl('ws://h:1/ws?scenario=first_lesson&class_code=x', null), 'ws://h:1/ws?class_code=x');
});

test('lessonView lists a step by its label, or by its goal when it has none', () => {
  const lesson = { steps: [{ goal: 'Open the jaws at half speed and let go at 50 deg', label: 'Open the jaws', controls: [] },
    { goal: 'Lift the log', controls: [] }] };
  const v = lessonView(lesson, { step: 0 });
  assert.equal(v.steps[0].label, 'Open the jaws');
  assert.equal(v.steps[0].goal, 'Open the jaws at half speed and let go at 50 deg');
  assert.equal(v.steps[1].label, 'Lift the log');
});
