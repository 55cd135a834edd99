// web/js/class-code.js and protocol.js's parseClientConfig: the class code's URL and refusals.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { withClassCode, classCodeRefusal } from '../js/class-code.js';
import { parseClientConfig } from '../js/protocol.js';
import { nextPage, refusalText } from '../js/login.js';
import { loginUrl } from '../js/instructor.js';

test('the class code rides in the WebSocket URL, other parameters kept', () => {
  assert.equal(withClassCode('ws://h:8080/ws', 'crane 42'), 'ws://h:8080/ws?class_code=crane+42');
  assert.equal(withClassCode('wss://h/ws?model=t250', 'a&b'), 'wss://h/ws?model=t250&class_code=a%26b');
  assert.equal(withClassCode('ws://h/ws?class_code=old', 'new'), 'ws://h/ws?class_code=new');
});

test('only a 1008 about the class code is a class-code refusal', () => {
  assert.equal(classCodeRefusal(1008, 'class code: wrong code'), 'class code: wrong code');
  assert.equal(classCodeRefusal(1008, 'origin not allowed: x'), null);
  assert.equal(classCodeRefusal(1013, 'class code: wrong code'), null);
  assert.equal(classCodeRefusal(1008, undefined), null);
});

test('client-config is checked field by field', () => {
  assert.deepEqual(parseClientConfig({ class_code_required: true, instructor_login_required: false }),
    { classCodeRequired: true, instructorLoginRequired: false, keyboard: null, scenarios: [], models: [] });
  assert.deepEqual(parseClientConfig({ class_code_required: false, instructor_login_required: false,
    scenarios: ['dam_intake', 'demo'], models: ['t250'] }).scenarios, ['dam_intake', 'demo']);
  assert.throws(() => parseClientConfig({ class_code_required: false, instructor_login_required: false, scenarios: 'demo' }),
    /scenarios: expected an array of names/);
  // the keyboard layout is passed on for keyboard.js to parse
  assert.deepEqual(parseClientConfig({ class_code_required: false, instructor_login_required: false, keyboard: { version: 1 } }).keyboard,
    { version: 1 });
  assert.throws(() => parseClientConfig({ instructor_login_required: false }), /class_code_required: missing/);
  assert.throws(() => parseClientConfig({ class_code_required: 'yes', instructor_login_required: false }),
    /expected a boolean/);
  assert.throws(() => parseClientConfig(null), /expected an object/);
});

test('the login page goes back only to a page of this server', () => {
  assert.equal(nextPage('?next=%2Finstructor.html'), '/instructor.html');
  assert.equal(nextPage('?next=%2F%2Fevil.example%2F'), '/instructor.html');
  assert.equal(nextPage('?next=https%3A%2F%2Fevil.example'), '/instructor.html');
  assert.equal(nextPage('?next=%2F%5Cevil.example'), '/instructor.html');
  assert.equal(nextPage(''), '/instructor.html');
  assert.equal(loginUrl('/instructor.html'), '/login.html?next=%2Finstructor.html');
});

test('login refusals show the server\'s words', () => {
  assert.equal(refusalText(401, { message: 'wrong name or password' }), 'wrong name or password');
  assert.match(refusalText(429, { message: 'too many failed attempts from this address; try again in 300 s' }), /300 s/);
  assert.equal(refusalText(500, null), 'Login failed (HTTP 500).');
});
