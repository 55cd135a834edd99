// protocol.js held to web/data/wire-schema.json, the protocol's one description: the
// browser's fixtures are messages the schema takes; a member the schema requires of a hello
// or a display, taken out, is refused by parseServerMessage or named in its warnings (where
// protocol.js degrades softly); every member protocol.js reads is one the schema defines.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { clearFaultMessage, controlMessage, faultMessage, instructorTextMessage, parseServerMessage, pingMessage,
  releaseControlMessage, restartMessage, takeControlMessage } from '../js/protocol.js';
import { playMessage, replayTicketMessage, seekMessage, speedMessage, takeOverMessage } from '../js/replay.js';
import { traineeMessage } from '../js/trainee.js';
import { checkSubset, describeProblems, messageSchema, resolve, validate } from '../js/wire-schema.js';

const schema = JSON.parse(readFileSync(new URL('../data/wire-schema.json', import.meta.url), 'utf8'));
const fixture = (name) => JSON.parse(readFileSync(new URL(`fixtures/${name}.json`, import.meta.url), 'utf8'));
const toBrowser = resolve(schema, '#/$defs/to_browser');

// Required members protocol.js takes without a word when they are missing, each with why:
// an older server did not send them, and the page draws or shows without them. Every other
// required member must be refused or named when missing.
const TOLERATED = new Map([
  ['hello.session', 'shown only as the session number in the page'],
  ['hello.server', 'shown only in the page\'s about line ("")'],
  ['hello.model', 'shown only in the page\'s title ("")'],
  ['hello.scenario', 'not read: the page names the world by hello.scene.name'],
  ['hello.frame_rates_hz', 'an older server offered only 20 Hz ([])'],
  ['hello.limits', 'an older server sent none: the page keeps its own defaults'],
  ['hello.limits.max_message_bytes', 'as hello.limits'],
  ['hello.limits.max_messages_per_s', 'as hello.limits'],
  ['hello.limits.full_stick_V', 'an older server had no other full stick than 5 V'],
  ['hello.parts', 'an older server sent none: the page then draws no parts (named in scene.js)'],
  ['hello.machine.clam.bucket_width_m', 'an older server sent none'],
  ['hello.machine.clam.max_load_kg', 'an older server sent none'],
  ['hello.machine.clam.closing_parts', 'an older server sent none: one part'],
  ['hello.machine.cables[0].slack_margin_m', 'an older server sent none'],
  ['hello.machine.cables[0].reeving', 'an older server sent none: the rope hangs from the tip'],
  ['hello.machine.hydraulics', 'an older server sent none: no relief sound'],
  ['hello.machine.carrier', 'an older server had no stability'],
  ['hello.machine.load_moment', 'an older server had no stability'],
  ['hello.machine.crane.boom_cylinder', 'an older server sent none: no cylinder drawn'],
  ['hello.machine.crane.counterweight', 'an older server sent none'],
  ['hello.scene.loads[0].id', 'the load\'s index stands for it'],
  ['hello.scene.loads[0].name', 'its id stands for it'],
  ['hello.scene.task.title', '"Task"'],
  ['hello.scene.task.loads', 'no loads named: []'],
  ['hello.scene.task.optimum_s', 'the score panel shows the score\'s own optimum_s'],
  ['hello.scene.task.limit_s', 'the score panel shows the score\'s own limit_s'],
  ['hello.scene.box.yaw_deg', 'a box without a yaw is not turned'],
  ['hello.scene.water.density_kg_per_m3', '1000'],
  ['hello.scene.box.bar_spacing_m', 'the rack is drawn without bars'],
  ['hello.scene.box.bar_width_m', 'the rack is drawn without bars'],
  ['display.flags.slack_m', 'an older server sent only the slack flags (null)'],
  ['display.loads[0].submerged', 'an older server sent none: 0'],
  ['display.contacts[0].solid', 'null: no solid named'],
  ['display.contacts[0].load', 'null: no load involved'],
  ['display.events.*', 'the counters are read by name where shown (web/js/event-kinds.js); a missing one counts 0'],
  ['display.score.*', 'an older score still parses: a missing flag is false, a missing count 0 (the score panel)'],
]);
const tolerated = (path) => TOLERATED.has(path) || TOLERATED.has(path.replace(/\.[^.]+$/, '.*'));

// Where a member sits in the fixture: [parent object, key, display path], for every member a
// schema object requires, following $ref, oneOf branches told apart by a member's value, and
// the first item of arrays.
function requiredMembers(root, s, value, path, out = []) {
  if (s.$ref) return requiredMembers(root, resolve(root, s.$ref), value, path, out);
  if (s.oneOf && value && typeof value === 'object' && !Array.isArray(value)) {
    const key = s['x-discriminator'] ?? 'type';
    const b = s.oneOf.map((x) => (x.$ref ? resolve(root, x.$ref) : x)).find((x) => x.properties?.[key]?.const === value[key]);
    if (b) requiredMembers(root, b, value, path, out);
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const k of s.required ?? []) if (k !== 'type' && k in value) out.push([value, k, `${path}.${k}`]);
    for (const [k, sub] of Object.entries(s.properties ?? {})) {
      if (k in value) requiredMembers(root, sub, value[k], `${path}.${k}`, out);
    }
  }
  if (Array.isArray(value) && value.length && s.items && value[0] && typeof value[0] === 'object') {
    requiredMembers(root, s.items, value[0], `${path}[0]`, out);
  }
  return out;
}

// "hello.scene.reservoir.yaw_deg" and the other boxes are one rule: every box of the scene
const canonical = (path) => path.replace(/^hello\.scene\.(reservoir|deck|gate|intake_floor|truck_bed|trash_rack|intake_walls\[0\])\./, 'hello.scene.box.');

test('wire schema: it is written in the subset web/js/wire-schema.js checks', () => {
  assert.deepEqual(checkSubset(schema), []);
});

test('wire schema: the browser\'s fixtures are messages the schema takes', () => {
  for (const name of ['hello', 'display']) {
    const problems = validate(schema, toBrowser, fixture(name), name);
    assert.equal(describeProblems(problems), '', `web/test/fixtures/${name}.json`);
  }
});

test('wire schema: each example of a message to the browser matches its message and parseServerMessage takes it', () => {
  for (const b of toBrowser.oneOf) {
    const s = resolve(schema, b.$ref);
    for (const e of s.examples ?? []) {
      assert.equal(describeProblems(validate(schema, s, e, e.type, { pointer: b.$ref })), '', `${b.$ref} example`);
      const r = parseServerMessage(JSON.stringify(e));
      assert.equal(r.ok, true, `${e.type}: ${r.error}`);
    }
  }
});

test('wire schema: a member a hello or a display must have, taken out, is refused or named', () => {
  const unnoticed = [];
  for (const name of ['hello', 'display']) {
    const base = fixture(name);
    const context = name === 'display' ? { displayFields: fixture('hello').display_fields } : {};
    for (const [, key, path] of requiredMembers(schema, toBrowser, base, name)) {
      const copy = structuredClone(base);
      const [parent] = requiredMembers(schema, toBrowser, copy, name).find(([, , p]) => p === path);
      delete parent[key];
      const r = parseServerMessage(JSON.stringify(copy), context);
      const field = path.split('.').pop().replace(/\[0\]$/, '');
      const named = !r.ok ? r.error.includes(field) : (r.msg.warnings ?? []).some((w) => w.includes(field));
      if (!named && !tolerated(canonical(path))) unnoticed.push(path);
    }
  }
  assert.deepEqual(unnoticed, [], 'protocol.js neither refuses nor names these missing members the schema requires');
});

test('wire schema: the tolerated list names only members the schema requires', () => {
  const all = new Set();
  for (const name of ['hello', 'display']) {
    for (const [, , p] of requiredMembers(schema, toBrowser, fixture(name), name)) all.add(canonical(p));
  }
  for (const p of TOLERATED.keys()) {
    assert.ok(all.has(p) || [...all].some((a) => a.replace(/\.[^.]+$/, '.*') === p), `${p}: not a required member of the schema`);
  }
});

// The paths protocol.js reads, found by handing it messages whose objects note every read.
function readsOf(message, context = {}) {
  const reads = new Set();
  const watch = (v, path) => {
    if (v === null || typeof v !== 'object') return v;
    return new Proxy(v, {
      get(target, key, receiver) {
        const x = Reflect.get(target, key, receiver);
        if (typeof key !== 'string') return x;
        if (Array.isArray(target)) {
          if (!/^\d+$/.test(key)) return x;  // length, map, slice...
          return watch(x, `${path}[]`);
        }
        if (!Object.prototype.hasOwnProperty.call(target, key) && key in Object.prototype) return x;
        reads.add(`${path}.${key}`);
        return watch(x, `${path}.${key}`);
      },
    });
  };
  const parse = JSON.parse;
  JSON.parse = (text) => watch(parse(text), message.type);
  try {
    parseServerMessage(JSON.stringify(message), context);
  } finally {
    JSON.parse = parse;
  }
  return reads;
}

// Whether a path ("display.loads[].id") names a member the schema defines.
function defines(s, parts) {
  if (s.$ref) return defines(resolve(schema, s.$ref), parts);
  if (!parts.length) return true;
  const [head, ...rest] = parts;
  if (s.oneOf && s.oneOf.some((b) => defines(b, parts))) return true;
  if (head === '[]') {
    if (s.items && defines(s.items, rest)) return true;
    return (s.prefixItems ?? []).some((p) => defines(p, rest));
  }
  if (s.properties && head in s.properties) return defines(s.properties[head], rest);
  return typeof s.additionalProperties === 'object' && defines(s.additionalProperties, rest);
}

test('wire schema: every member protocol.js reads is one the schema defines', () => {
  const messages = [fixture('hello'), fixture('display')];
  for (const b of toBrowser.oneOf) messages.push(...(resolve(schema, b.$ref).examples ?? []));
  const observing = { ...fixture('hello'), observing: { session: 3, trainee: null, transport: 'websocket', label: 's', may_send: [], faults: [] } };
  messages.push(observing);
  const undefinedReads = [];
  for (const m of messages) {
    const context = m.type === 'display' ? { displayFields: fixture('hello').display_fields } : {};
    for (const path of readsOf(m, context)) {
      const parts = path.split(/\.|(?=\[\])/).slice(1);
      if (!defines(messageSchema(schema, 'to_browser', m.type).schema, parts)) undefinedReads.push(path);
    }
  }
  assert.deepEqual([...new Set(undefinedReads)], [], 'protocol.js reads these, which web/data/wire-schema.json does not define');
});

// docs/websocket-protocol.md's JSON examples that are whole messages (the ones with "..."
// are excerpts) are messages one direction or the other takes.
test('wire schema: the protocol doc\'s whole-message examples match the schema', () => {
  const doc = readFileSync(new URL('../../docs/websocket-protocol.md', import.meta.url), 'utf8');
  const blocks = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1].replace(/^ {3}/gm, ''));
  let checked = 0;
  const wrong = [];
  for (const block of blocks) {
    // a block may hold one message per line
    for (const text of block.trim().startsWith('{"type"') ? block.split(/\n(?=\{)/) : [block]) {
      let m;
      try {
        m = JSON.parse(text);
      } catch {
        continue;
      }
      if (typeof m?.type !== 'string') continue;
      checked += 1;
      const problems = ['to_browser', 'to_server'].map((d) => messageSchema(schema, d, m.type))
        .filter(Boolean).map(({ ref, schema: s }) => validate(schema, s, m, m.type, { pointer: ref }));
      if (!problems.some((p) => p.length === 0)) wrong.push(`${text.trim().slice(0, 60)}...\n${describeProblems(problems.flat())}`);
    }
  }
  assert.ok(checked >= 10, `only ${checked} whole messages found in the doc`);
  assert.deepEqual(wrong, []);
});

// What the page sends is what the schema says the server takes.
test('wire schema: every message the page builds matches its message to the server', () => {
  const text = (m) => (typeof m === 'string' ? JSON.parse(m) : m);
  const built = [controlMessage([1, 2, 9, -9, 0]), pingMessage(7, 1234.5), pingMessage('a', 1), restartMessage(),
    restartMessage(3, true), takeControlMessage(false, false), takeControlMessage(true, true), releaseControlMessage(),
    instructorTextMessage('Lower slowly'), faultMessage('burst_hose', { function: 'boom' }), clearFaultMessage('all'),
    playMessage(true), speedMessage(4), seekMessage(12.4), takeOverMessage(), replayTicketMessage(),
    traineeMessage('Ada')].map(text);
  for (const m of built) {
    const found = messageSchema(schema, 'to_server', m.type);
    assert.ok(found, `${m.type}: no such message to the server in the schema`);
    assert.equal(describeProblems(validate(schema, found.schema, m, m.type, { pointer: found.ref })), '', JSON.stringify(m));
  }
});
