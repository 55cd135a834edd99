// web/js/refusal.js: what the page offers when the server refuses its connection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeRefusal } from '../js/refusal.js';

const lists = { scenarios: ['dam_intake', 'demo'], models: ['t250'] };

test('an unknown scenario offers every scenario as a link to this page', () => {
  const r = describeRefusal('unknown scenario "dam_intak"; the scenarios: dam_intake, demo', lists,
    'http://127.0.0.1:8080/?scenario=dam_intak&rate=30');
  assert.equal(r.text, 'Refused by the server: unknown scenario "dam_intak". Choose one of the scenarios '
    + 'below, or correct ?scenario= in the address.');
  assert.deepEqual(r.choices, [
    { name: 'dam_intake', href: 'http://127.0.0.1:8080/?scenario=dam_intake&rate=30' },
    { name: 'demo', href: 'http://127.0.0.1:8080/?scenario=demo&rate=30' },
  ]);
});

test('an unknown model offers the models', () => {
  const r = describeRefusal('unknown model "t25"; the models: t250', lists, 'http://h/?model=t25');
  assert.deepEqual(r.choices, [{ name: 't250', href: 'http://h/?model=t250' }]);
});

test('another refusal has no choices and says a reload will not help', () => {
  const r = describeRefusal('origin not allowed: http://evil', lists, 'http://h/');
  assert.deepEqual(r.choices, []);
  assert.match(r.text, /origin not allowed: http:\/\/evil\. Reloading the page will not help/);
  // an older server that sends no lists: the reason (which names them) is all there is
  assert.deepEqual(describeRefusal('unknown scenario "x"; the scenarios: demo', {}, 'http://h/').choices, []);
});
