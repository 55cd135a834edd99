import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { choosePage, PAGE_KINDS } from '../js/pages/choice.js';

test('a plain address is a trainee\'s live page', () => {
  const p = choosePage('');
  assert.equal(p.kind, 'trainee');
  assert.equal(p.watchOnly, false);
  assert.equal(p.takeover, false);
  assert.equal(p.takeoverTicket, null);
  assert.deepEqual(choosePage('?scenario=lesson-1&view=top&rate=30').kind, 'trainee', 'a lesson world is a trainee page');
});

test('?observe=ID is an instructor watching; ?replay=NAME a replay; both watch only', () => {
  const o = choosePage('?observe=3');
  assert.equal(o.kind, 'observer');
  assert.equal(o.observeId, '3');
  assert.equal(o.watchOnly, true);
  const r = choosePage('?replay=session-1.mcap&ticket=t&from=40');
  assert.equal(r.kind, 'replay');
  assert.deepEqual(r.replayRequest, { name: 'session-1.mcap', ticket: 't', from: 40 });
  assert.equal(r.watchOnly, true);
  for (const p of [o, r]) assert.ok(PAGE_KINDS.includes(p.kind));
});

test('?takeover=T is a trainee page that takes over a replayed moment', () => {
  const p = choosePage('?takeover=abc');
  assert.equal(p.kind, 'trainee');
  assert.equal(p.takeover, true);
  assert.equal(p.takeoverTicket, 'abc');
  assert.equal(choosePage('?takeover=').takeover, false, 'an empty ticket is none');
});

test('a replay wins over watching, and watching over a take-over (the URL connected to)', () => {
  assert.equal(choosePage('?replay=a.mcap&observe=3').kind, 'replay');
  const o = choosePage('?observe=3&takeover=abc');
  assert.equal(o.kind, 'observer');
  assert.equal(o.takeover, false);
  assert.equal(o.takeoverTicket, null, 'a watching page takes nothing over');
  assert.equal(choosePage('?observe=').kind, 'trainee', 'an empty id watches nothing');
});

test('the page modules keep their state in state objects: no module-level let or var', () => {
  const dir = new URL('../js/pages/', import.meta.url);
  const files = [new URL('../js/main.js', import.meta.url), ...readdirSync(dir).map((f) => new URL(f, dir))];
  assert.ok(files.length >= 8, 'main.js and the page modules');
  for (const f of files) {
    const top = readFileSync(f, 'utf8').split('\n').filter((l) => /^(let|var)\s/.test(l));
    assert.deepEqual(top, [], `${f.pathname}: module-level mutable variables`);
  }
});
