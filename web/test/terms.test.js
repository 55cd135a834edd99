import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PLAIN_TERMS, plainTerm } from '../js/terms.js';

// the states the server can send, as server/core/names.cc spells them
function serverSpellings() {
  const src = readFileSync(new URL('../../server/core/names.cc', import.meta.url), 'utf8');
  const kinds = { WorkingState: 'working', GeoStatus: 'geo', LoadStatus: 'load' };
  const out = [];
  for (const m of src.matchAll(/case (\w+)::\w+: return "([^"]+)";/g)) {
    if (kinds[m[1]]) out.push([kinds[m[1]], m[2]]);
  }
  return out;
}

test('every working state, Geo status and Load status the server sends has a plain phrase and a tooltip', () => {
  const states = serverSpellings();
  assert.equal(states.length, 8);   // 3 working states, 3 Geo, 2 Load (Table 2.4)
  for (const [kind, term] of states) {
    const p = plainTerm(kind, term);
    assert.equal(p.term, term, `${kind} ${term}`);
    assert.ok(p.plain.length > 5, `${kind} ${term}: plain phrase`);
    assert.ok(p.tip.includes(term), `${kind} ${term}: the tooltip names the thesis term`);
  }
  // no phrase without a state behind it
  assert.equal(Object.values(PLAIN_TERMS).reduce((n, t) => n + Object.keys(t).length, 0), states.length);
});

test('the issue\'s examples, and other spellings of the same state', () => {
  assert.equal(plainTerm('load', 'With-load').plain, 'Jaws: closed on a load');
  assert.equal(plainTerm('working', 'Distributed').plain, 'Ropes: both carrying');
  assert.equal(plainTerm('geo', 'InRange').plain, 'Jaws: part open');      // the receiver's spelling
  assert.equal(plainTerm('load', 'WithoutLoad').term, 'Without-load');
});

test('unknown or missing terms are shown as they came, with no phrase', () => {
  assert.deepEqual(plainTerm('geo', 'Sideways'), { term: 'Sideways', plain: '', tip: '' });
  assert.deepEqual(plainTerm('geo', undefined), { term: '–', plain: '', tip: '' });
  assert.equal(plainTerm('nosuch', 'Free').plain, '');
});
