import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deskState, onControl, onAnswer, deskStatus, deskButtons, instructorDrives } from '../js/desk.js';
import { observerBanner } from '../js/observer.js';
import { parseServerMessage, takeControlMessage, releaseControlMessage, instructorTextMessage,
  faultMessage, clearFaultMessage } from '../js/protocol.js';
import { createInstructorNotices } from '../js/instructor-notices.js';

const byId = (buttons) => Object.fromEntries(buttons.map((b) => [b.id, b]));

test('watching: the trainee drives, the instructor may take or share, nothing to hand back', () => {
  const s = deskState();
  assert.equal(deskStatus(s), 'The trainee drives.');
  const b = byId(deskButtons(s));
  assert.equal(b.take.label, 'Take control');
  assert.equal(b.take.request, 'take_control');
  assert.equal(b.take.wait, false);
  assert.equal(b.share.request, 'share_control');
  assert.equal(b.release.disabled, true);
  assert.equal(instructorDrives(s), false);
});

test('holding exclusive control: the page drives, take is done, hand back is offered', () => {
  const s = onControl(deskState(), { mode: 'exclusive', holder: 'ann', you: true, waiting: 0 });
  assert.equal(instructorDrives(s), true);
  assert.match(deskStatus(s), /^You drive \(exclusive control\)/);
  const b = byId(deskButtons(s));
  assert.equal(b.take.disabled, true);
  assert.equal(b.share.disabled, false, 'may switch to dual control');
  assert.equal(b.release.disabled, false);
  assert.equal(b.release.label, 'Hand back');
  assert.equal(observerBanner({ session: 3, trainee: 'Ada' }, true),
    'Driving Ada\u2019s machine (session 3) - your keys and joystick move it');
});

test('held by another instructor: the buttons offer to wait in line, then to leave it', () => {
  let s = onControl(deskState(), { mode: 'shared', holder: 'bob', you: false, waiting: 0 });
  assert.equal(deskStatus(s), 'bob has dual control.');
  let b = byId(deskButtons(s));
  assert.equal(b.take.label, 'Wait to take control');
  assert.equal(b.take.wait, true);
  s = onAnswer(s, { request: 'take_control', result: 'waiting', message: 'bob has dual control; you are number 1 in line' });
  s = onControl(s, { mode: 'shared', holder: 'bob', you: false, waiting: 1 });
  assert.equal(deskStatus(s), 'bob has dual control. You are waiting in line.');
  b = byId(deskButtons(s));
  assert.equal(b.take.disabled, true);
  assert.equal(b.release.label, 'Leave the line');
  assert.equal(b.release.disabled, false);
  // bob hands back and this instructor is next
  s = onControl(s, { mode: 'exclusive', holder: 'ann', you: true, waiting: 0 });
  assert.equal(s.inLine, false);
  assert.equal(instructorDrives(s), true);
});

test('the server\u2019s control messages parse, and the requests are what the protocol says', () => {
  const c = parseServerMessage('{"type":"control","mode":"exclusive","holder":"ann","waiting":0,"text":"Instructor ann is driving: your stick is ignored"}');
  assert.equal(c.ok, true);
  assert.deepEqual(c.msg, { type: 'control', mode: 'exclusive', holder: 'ann', waiting: 0,
    text: 'Instructor ann is driving: your stick is ignored', you: false });
  assert.equal(parseServerMessage('{"type":"control","mode":"boss"}').ok, false);
  assert.equal(parseServerMessage('{"type":"instructor_message","from":"ann","text":"Slower"}').msg.text, 'Slower');
  assert.equal(parseServerMessage('{"type":"instructor_message","from":"ann"}').ok, false);
  assert.equal(parseServerMessage('{"type":"control_answer","request":"take_control","result":"refused","message":"bob has it"}').msg.result, 'refused');
  assert.deepEqual(JSON.parse(takeControlMessage(false, true)), { type: 'take_control', wait: true });
  assert.deepEqual(JSON.parse(takeControlMessage(true, false)), { type: 'share_control', wait: false });
  assert.deepEqual(JSON.parse(releaseControlMessage()), { type: 'release_control' });
  assert.deepEqual(JSON.parse(instructorTextMessage('hi')), { type: 'message', text: 'hi' });
  assert.deepEqual(JSON.parse(faultMessage('burst_hose', { function: 'boom' })), { type: 'fault', name: 'burst_hose', params: { function: 'boom' } });
  assert.deepEqual(JSON.parse(clearFaultMessage('all')), { type: 'clear_fault', name: 'all', params: {} });
});

test('the trainee\u2019s banner shows who drives; a message shows, then goes', () => {
  const el = () => ({ hidden: true, dataset: {}, textContent: '', children: [],
    replaceChildren() { this.children = []; this.textContent = ''; },
    append(...c) { this.children.push(...c); this.textContent += c.map((x) => (typeof x === 'string' ? x : x.textContent)).join(''); } });
  global.document = { createElement: () => ({ textContent: '' }) };
  const banner = el(), toast = el();
  const timers = [];
  const n = createInstructorNotices({ banner, toast, setTimer: (f, ms) => timers.push({ f, ms }), clearTimer: () => {} });
  n.control({ mode: 'exclusive', text: 'Instructor ann is driving: your stick is ignored' });
  assert.equal(banner.hidden, false);
  assert.equal(banner.textContent, 'Instructor ann is driving: your stick is ignored');
  n.control({ mode: 'trainee', text: 'You are driving' });
  assert.equal(banner.hidden, true);
  n.message({ from: 'ann', text: 'Lower slowly' });
  assert.equal(toast.hidden, false);
  assert.equal(toast.textContent, 'ann: Lower slowly');
  assert.equal(timers.length, 1);
  assert.ok(timers[0].ms >= 8000, 'long enough to read');
  timers[0].f();
  assert.equal(toast.hidden, true);
  delete global.document;
});

test('the fault form comes from the server\u2019s catalog', async () => {
  const { faultTitle, faultFields, faultParams, faultTarget } = await import('../js/fault-form.js');
  const catalog = [{ name: 'burst_hose', summary: 'A hose bursts.', target: 'function', params: [
    { name: 'function', help: 'which', choices: ['swing', 'boom'], default: 'boom' },
    { name: 'diameter_mm', help: 'size', unit: 'mm', min: 0.5, max: 10, default: 3 },
  ] }, { name: 'turbidity', summary: 'Murky water.', target: '', params: [
    { name: 'level', help: '0..1', unit: '', min: 0, max: 1, default: 0.7 }] }];
  assert.equal(faultTitle('burst_hose'), 'Burst hose');
  const fields = faultFields(catalog[0]);
  assert.deepEqual(fields.map((f) => [f.name, f.label, f.kind, f.value]),
    [['function', 'function', 'choice', 'boom'], ['diameter_mm', 'diameter [mm]', 'number', 3]]);
  assert.equal(faultFields(catalog[1])[0].step, 0.05, 'a 0..1 range steps finely');
  assert.equal(faultFields({ params: [{ name: 'creep_mm_per_s_per_t', unit: 'mm/s per t', min: 1, max: 500 }] })[0].label,
    'creep [mm/s per t]');
  assert.deepEqual(faultParams(catalog[0], { function: 'swing', diameter_mm: '4.5' }), { function: 'swing', diameter_mm: 4.5 });
  assert.deepEqual(faultParams(catalog[0], { function: 'swing', diameter_mm: '' }), { function: 'swing' }, 'empty: the default');
  assert.deepEqual(faultTarget({ name: 'burst_hose', params: { function: 'boom', diameter_mm: 3 } }, catalog), { function: 'boom' });
  assert.deepEqual(faultTarget({ name: 'turbidity', params: { level: 1 } }, catalog), {});
});
