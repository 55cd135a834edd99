import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkTraineeName, trimTraineeName, traineeNameLength, traineeMessage, loadTraineeName, saveTraineeName,
  traineeErrorKind, makeTraineeSync, TRAINEE_STORAGE_KEY, TRAINEE_MAX_CHARS,
} from '../js/trainee.js';

function memoryStorage(init = {}) {
  const m = new Map(Object.entries(init));
  return {
    getItem: (k) => (m.has(k) ? m.get(k) : null),
    setItem: (k, v) => m.set(k, String(v)),
    removeItem: (k) => m.delete(k),
    get size() { return m.size; },
  };
}

test('names are trimmed as the server trims them: space, tab, CR, LF only', () => {
  assert.equal(trimTraineeName('  Ada Lovelace \t\r\n'), 'Ada Lovelace');
  assert.deepEqual(checkTraineeName('  Ada Lovelace  '), { ok: true, name: 'Ada Lovelace' });
  // a no-break space is a character of the name to the server, so it stays
  assert.equal(checkTraineeName('\u00a0Ada').name, '\u00a0Ada');
  assert.equal(checkTraineeName('Ada  Byron').name, 'Ada  Byron', 'inner spaces kept');
});

test('empty, too long, control characters and broken text are refused with a reason', () => {
  for (const raw of ['', '   ', '\t\n']) {
    const r = checkTraineeName(raw);
    assert.equal(r.ok, false);
    assert.match(r.error, /empty/);
  }
  assert.equal(checkTraineeName('x'.repeat(TRAINEE_MAX_CHARS)).ok, true);
  const long = checkTraineeName('x'.repeat(41));
  assert.equal(long.ok, false);
  assert.match(long.error, /41 characters long; at most 40/);
  assert.equal(checkTraineeName(` ${'x'.repeat(40)} `).ok, true, 'the spaces trimmed do not count');
  assert.match(checkTraineeName('Ada\u0007').error, /control character \(character 4\)/);
  assert.match(checkTraineeName('Ada\u0085x').error, /control character/, 'C1 controls too');
  assert.match(checkTraineeName('A\u007fda').error, /control character \(character 2\)/);
  assert.match(checkTraineeName('Ada\ud800').error, /broken character \(character 4\)/);
  assert.match(checkTraineeName('\udc00').error, /broken/);
  assert.equal(checkTraineeName(42).ok, false);
  assert.equal(checkTraineeName(null).ok, false);
});

test('length counts code points, as the server does, not UTF-16 units', () => {
  const emoji = '\u{1F3D7}';  // building construction: two UTF-16 units
  assert.equal(emoji.length, 2);
  assert.equal(traineeNameLength(emoji.repeat(40)), 40);
  assert.equal(checkTraineeName(emoji.repeat(40)).ok, true);
  assert.equal(checkTraineeName(emoji.repeat(41)).ok, false);
  assert.equal(checkTraineeName('Zoë Ångström-Łukasiewicz').ok, true);
  assert.equal(traineeNameLength('  Zoë '), 3);
});

test('the message carries only type and name', () => {
  assert.deepEqual(JSON.parse(traineeMessage('Ada Lovelace')), { type: 'trainee', name: 'Ada Lovelace' });
  assert.deepEqual(JSON.parse(traineeMessage('"quoted" \\ Zoë')), { type: 'trainee', name: '"quoted" \\ Zoë' });
});

test('storage: saved under clamsim.trainee.v1, a bad or missing entry reads as none', () => {
  const s = memoryStorage();
  assert.equal(loadTraineeName(s), null);
  saveTraineeName(s, 'Ada');
  assert.equal(s.getItem(TRAINEE_STORAGE_KEY), 'Ada');
  assert.equal(loadTraineeName(s), 'Ada');
  saveTraineeName(s, null);
  assert.equal(s.size, 0);
  assert.equal(loadTraineeName(memoryStorage({ [TRAINEE_STORAGE_KEY]: '   ' })), null);
  assert.equal(loadTraineeName(memoryStorage({ [TRAINEE_STORAGE_KEY]: 'y'.repeat(41) })), null);
  assert.equal(loadTraineeName(memoryStorage({ [TRAINEE_STORAGE_KEY]: ' Ada ' })), 'Ada');
  const blocked = { getItem() { throw new Error('denied'); }, setItem() { throw new Error('denied'); }, removeItem() {} };
  assert.equal(loadTraineeName(blocked), null);
  assert.doesNotThrow(() => saveTraineeName(blocked, 'Ada'));
  assert.equal(loadTraineeName(undefined), null);
});

test('which server errors answer a trainee message', () => {
  assert.equal(traineeErrorKind({ code: 'bad_trainee', message: 'the trainee\'s name is empty' }), 'refused');
  assert.equal(traineeErrorKind({ code: 'bad_message', message: 'trainee: missing "name"' }), 'refused');
  assert.equal(traineeErrorKind({ code: 'unknown_type', message: 'unknown message type "trainee"' }), 'unsupported');
  assert.equal(traineeErrorKind({ code: 'bad_control', message: 'volts[2] (telescope) is not a number' }), null);
  assert.equal(traineeErrorKind({ code: 'bad_message', message: 'restart: unexpected field' }), null);
  assert.equal(traineeErrorKind(null), null);
});

test('sync: the stored name goes out after every hello, and is acknowledged', () => {
  const s = memoryStorage({ [TRAINEE_STORAGE_KEY]: 'Ada Lovelace' });
  const sync = makeTraineeSync({ storage: s });
  assert.equal(sync.view().state, 'offline');
  const m = sync.hello();
  assert.deepEqual(JSON.parse(m), { type: 'trainee', name: 'Ada Lovelace' });
  assert.equal(sync.view().state, 'sending');
  sync.acknowledged('Ada Lovelace');
  assert.equal(sync.view().state, 'acknowledged');
  assert.equal(sync.view().acknowledged, 'Ada Lovelace');
  // the connection drops: the next session knows nothing until the name goes out again
  sync.disconnected();
  assert.equal(sync.view().state, 'offline');
  assert.equal(sync.view().acknowledged, null);
  assert.ok(sync.hello());
  assert.equal(sync.view().sent, 2);
});

test('sync: nothing to send without a stored name; a new name goes out at once and is stored', () => {
  const s = memoryStorage();
  const sync = makeTraineeSync({ storage: s });
  assert.equal(sync.hello(), null);
  assert.equal(sync.view().state, 'none');
  const r = sync.submit('  Grace Hopper ');
  assert.equal(r.ok, true);
  assert.equal(r.name, 'Grace Hopper');
  assert.deepEqual(JSON.parse(r.message), { type: 'trainee', name: 'Grace Hopper' });
  assert.equal(s.getItem(TRAINEE_STORAGE_KEY), 'Grace Hopper');
  sync.acknowledged('Grace Hopper');
  assert.equal(sync.view().state, 'acknowledged');
});

test('sync: a name the client refuses is neither stored nor sent', () => {
  const s = memoryStorage({ [TRAINEE_STORAGE_KEY]: 'Ada' });
  const sync = makeTraineeSync({ storage: s });
  sync.hello();
  sync.acknowledged('Ada');
  const r = sync.submit('z'.repeat(41));
  assert.equal(r.ok, false);
  assert.equal(r.message, undefined);
  assert.equal(s.getItem(TRAINEE_STORAGE_KEY), 'Ada');
  const v = sync.view();
  assert.equal(v.sent, 1);
  assert.equal(v.state, 'acknowledged');
  assert.equal(v.error.by, 'client');
  assert.match(v.error.text, /41 characters/);
  sync.clearError();
  assert.equal(sync.view().error, null);
});

test('sync: a name entered while offline is stored and sent on the next hello', () => {
  const s = memoryStorage();
  const sync = makeTraineeSync({ storage: s });
  const r = sync.submit('Ada');
  assert.equal(r.ok, true);
  assert.equal(r.message, null);
  assert.equal(sync.view().state, 'offline');
  assert.deepEqual(JSON.parse(sync.hello()), { type: 'trainee', name: 'Ada' });
});

test('sync: a name the server refuses falls back to the one it holds', () => {
  const s = memoryStorage({ [TRAINEE_STORAGE_KEY]: 'Ada' });
  const sync = makeTraineeSync({ storage: s });
  sync.hello();
  sync.acknowledged('Ada');
  sync.submit('Bob');
  const name = sync.refused({ code: 'bad_trainee', message: 'the trainee\'s name contains a control character (at byte 2)' });
  assert.equal(name, 'Bob');
  const v = sync.view();
  assert.equal(v.name, 'Ada');
  assert.equal(v.state, 'acknowledged');
  assert.equal(v.error.by, 'server');
  assert.match(v.error.text, /control character/);
  assert.equal(s.getItem(TRAINEE_STORAGE_KEY), 'Ada');
  // refused right after a hello: the session holds none, so none is kept
  const sync2 = makeTraineeSync({ storage: s });
  sync2.hello();
  sync2.refused({ code: 'bad_trainee', message: 'no' });
  assert.equal(sync2.view().state, 'none');
  assert.equal(s.getItem(TRAINEE_STORAGE_KEY), null);
});

test('sync: answers are matched to names in order; the server\'s trimmed name wins', () => {
  const s = memoryStorage();
  const sync = makeTraineeSync({ storage: s });
  sync.hello();
  sync.submit('Ada');
  sync.submit('Bob');
  sync.acknowledged('Ada');
  assert.equal(sync.view().state, 'sending', 'Bob still in flight');
  sync.acknowledged('Bob');
  assert.equal(sync.view().state, 'acknowledged');
  // a server that trims more than the client: store what it holds
  sync.submit('Cy');
  sync.acknowledged('C');
  assert.equal(sync.view().name, 'C');
  assert.equal(s.getItem(TRAINEE_STORAGE_KEY), 'C');
});

test('sync: a server without names keeps the stored name and says so', () => {
  const s = memoryStorage({ [TRAINEE_STORAGE_KEY]: 'Ada' });
  const sync = makeTraineeSync({ storage: s });
  sync.hello();
  sync.refused({ code: 'unknown_type', message: 'unknown message type "trainee"' });
  assert.equal(sync.view().state, 'unsupported');
  assert.equal(s.getItem(TRAINEE_STORAGE_KEY), 'Ada');
  assert.equal(sync.submit('Bob').message, null, 'not sent to a server that cannot take it');
  assert.equal(sync.view().error, null);
});
