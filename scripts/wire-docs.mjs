#!/usr/bin/env node
// docs/websocket-protocol.md's field tables, generated from web/data/wire-schema.json (the
// protocol's one description). Each table sits between
//   <!-- generated from web/data/wire-schema.json: NAME -->  and  <!-- end generated -->
// where NAME is a definition of the schema (hello, display, machine, ...) or
// "to_server:ROLE", the messages a trainee, an observer or a replay may send.
//   node scripts/wire-docs.mjs           rewrites the tables in place
//   node scripts/wire-docs.mjs --check   exits 1, showing what differs, when they are stale
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SCHEMA = 'web/data/wire-schema.json';
const DOC = 'docs/websocket-protocol.md';
const BEGIN = /^<!-- generated from web\/data\/wire-schema\.json: ([\w:]+) -->$/;
const END = '<!-- end generated -->';

const schema = JSON.parse(readFileSync(join(ROOT, SCHEMA), 'utf8'));
const defs = schema.$defs;

function resolve(s) {
  return s.$ref ? defs[s.$ref.replace('#/$defs/', '')] : s;
}
const refName = (s) => (s.$ref ? s.$ref.replace('#/$defs/', '') : null);
const cell = (text) => String(text ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (v) => `\`${typeof v === 'string' ? v : JSON.stringify(v)}\``;

// A shared object definition, or the parts' list, gets its own table: a field of that kind
// points to it.
const isTable = (name) => Boolean(name) && (name === 'part_names' || resolve({ $ref: `#/$defs/${name}` }).properties !== undefined);

function typeText(s) {
  const r = resolve(s);
  if (isTable(refName(s))) return `${r.type === 'array' ? 'array' : 'object'}: ${refName(s)}`;
  if (r.const !== undefined) return code(r.const);
  if (r.enum) return r.enum.map(code).join(', ');
  if (r.oneOf) return 'object';
  const types = [].concat(r.type ?? []);
  if (types.includes('array')) {
    const n = r.minItems !== undefined && r.minItems === r.maxItems ? `${r.minItems} ` : '';
    if (r.prefixItems) return `array of ${r.prefixItems.length}`;
    if (r.items && isTable(refName(r.items))) return `array of ${refName(r.items)}`;
    const it = r.items ? resolve(r.items) : {};
    const what = it.type === 'array' ? 'arrays' : it.type === 'object' || it.properties || it.oneOf ? 'objects' : `${[].concat(it.type ?? 'value').join(' or ')}s`;
    return `${n}${what}`;
  }
  return types.join(' or ');
}

function unitOf(s) {
  const r = resolve(s);
  return s['x-unit'] ?? r['x-unit'] ?? (r.items && resolve(r.items)['x-unit']) ?? '';
}

function range(r) {
  const lo = r.minimum ?? r.items?.minimum, hi = r.maximum ?? r.items?.maximum;
  if (lo !== undefined && hi !== undefined) return ` (${lo}..${hi})`;
  if (lo !== undefined && lo !== 0) return ` (at least ${lo})`;
  return '';
}

// One row per member, nested objects and arrays of objects flattened (`a.b`, `a[].b`,
// `a[0]`); a oneOf's branches are merged, each member saying which branch has it.
function rows(s, prefix, out, note = '') {
  const r = resolve(s);
  const required = new Set(r.required ?? []);
  for (const [k, sub] of Object.entries(r.properties ?? {})) {
    if (k === 'type' && prefix === '' && r['x-direction']) continue;
    member(sub, `${prefix}${k}`, out, required.has(k) ? note : `optional${note ? `; ${note}` : ''}`);
  }
  others(r, prefix, out, note);
}

// Members named at run time (additionalProperties with a schema): one row for them all.
function others(r, prefix, out, note) {
  if (typeof r.additionalProperties === 'object') member(r.additionalProperties, `${prefix}*`, out, note);
}

function member(sub, name, out, note) {
  const r = resolve(sub);
  const desc = sub.description ?? r.description ?? '';
  const nested = !isTable(refName(sub));
  out.push({ name, type: typeText(sub), unit: unitOf(sub), desc: `${note ? `(${note}) ` : ''}${desc}${range(r)}` });
  if (!nested) return;
  if (r.properties) rows(r, `${name}.`, out);
  if (r.oneOf) branches(r, name, out);
  if (r.prefixItems) r.prefixItems.forEach((p, i) => member(p, `${name}[${i}]`, out, ''));
  if (r.items) {
    const it = resolve(r.items);
    if (it.properties && !isTable(refName(r.items))) rows(it, `${name}[].`, out);
    if (it.oneOf) branches(it, `${name}[]`, out);
  }
}

// oneOf of objects told apart by a member (x-discriminator, "type" by default).
function branches(r, name, out) {
  const key = r['x-discriminator'] ?? 'type';
  const seen = new Map();
  r.oneOf.forEach((b) => {
    const rb = resolve(b);
    const tag = rb.properties?.[key];
    const tags = tag?.const !== undefined ? [tag.const] : tag?.enum ?? [];
    for (const [k, sub] of Object.entries(rb.properties ?? {})) {
      if (k === key) continue;
      const e = seen.get(k) ?? { sub, tags: [] };
      e.tags.push(...tags);
      seen.set(k, e);
    }
  });
  const tagsOf = (b) => {
    const t = resolve(b).properties[key];
    return t.const !== undefined ? [t.const] : t.enum;
  };
  // a branch by its first value, and how many more it has
  const label = (tags) => (tags.length > 3 ? `${code(tags[0])} and the ${tags.length - 1} others above` : tags.map(code).join(', '));
  const keyRow = r.oneOf.map((b) => `${tagsOf(b).map(code).join(', ')}: ${resolve(b).description.replace(/\.$/, '')}`);
  const keyType = r.oneOf.every((b) => typeof tagsOf(b)[0] === 'string') ? 'string' : r.oneOf.flatMap(tagsOf).map(code).join(', ');
  out.push({ name: `${name}.${key}`, type: keyType, unit: '', desc: keyRow.join('; ') });
  for (const [k, { sub, tags }] of seen) {
    const all = r.oneOf.length === tags.length;
    member(sub, `${name}.${k}`, out, all ? '' : `with ${key} ${label(tags)}`);
  }
  r.oneOf.forEach((b) => others(resolve(b), `${name}.`, out, r.oneOf.length > 1 ? `with ${key} ${label(tagsOf(b))}` : ''));
}

function table(list) {
  const hasUnit = list.some((x) => x.unit);
  const head = hasUnit ? '| field | type | unit | meaning |\n| --- | --- | --- | --- |' : '| field | type | meaning |\n| --- | --- | --- |';
  const body = list.map((x) => (hasUnit
    ? `| \`${x.name}\` | ${cell(x.type)} | ${cell(x.unit)} | ${cell(x.desc)} |`
    : `| \`${x.name}\` | ${cell(x.type)} | ${cell(x.desc)} |`));
  return [head, ...body].join('\n');
}

function defTable(name) {
  const s = defs[name];
  if (!s) throw new Error(`${DOC}: no definition "${name}" in ${SCHEMA} (it has: ${Object.keys(defs).join(', ')})`);
  const out = [];
  if (s.properties) rows(s, '', out);
  else if (s.prefixItems) s.prefixItems.forEach((p, i) => member(p, `[${i}]`, out, ''));
  else member(s, name, out, '');
  const roles = (s['x-roles'] ?? []).join(', ').replace(/, ([^,]*)$/, ' and $1');
  const intro = s['x-direction'] ? `**\`${s.properties.type.const}\`** (to ${roles} connections): ${s.description}\n\n` : '';
  return `${intro}${table(out)}`;
}

// The messages one role may send: each with an example and its members.
function sendTable(role) {
  const lines = ['| message | fields | meaning |', '| --- | --- | --- |'];
  for (const b of defs.to_server.oneOf) {
    const s = resolve(b);
    if (!s['x-roles'].includes(role)) continue;
    const fields = Object.entries(s.properties).filter(([k]) => k !== 'type').map(([k, sub]) => {
      const opt = (s.required ?? []).includes(k) ? '' : ' (optional)';
      const unit = unitOf(sub) ? ` [${unitOf(sub)}]` : '';
      return `\`${k}\`${opt}: ${typeText(sub)}${unit}${range(resolve(sub))}, ${sub.description ?? ''}`;
    });
    lines.push(`| \`${JSON.stringify(s.examples[0]).replace(/,/g, ', ').replace(/:/g, ': ')}\` | ${cell(fields.join('<br>') || 'none')} | ${cell(s.description)} |`);
  }
  return lines.join('\n');
}

function generate(name) {
  return name.startsWith('to_server:') ? sendTable(name.slice('to_server:'.length)) : defTable(name);
}

// The doc with every generated block replaced; throws naming a block left open.
export function render(text) {
  const lines = text.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const m = BEGIN.exec(lines[i]);
    out.push(lines[i]);
    if (!m) continue;
    const end = lines.indexOf(END, i + 1);
    if (end < 0) throw new Error(`${DOC}:${i + 1}: "${lines[i]}" has no "${END}"`);
    out.push(generate(m[1]), END);
    i = end;
  }
  return out.join('\n');
}

function diff(a, b) {
  const x = a.split('\n'), y = b.split('\n');
  const shown = [];
  for (let i = 0; i < Math.max(x.length, y.length) && shown.length < 12; i++) {
    if (x[i] !== y[i]) shown.push(`  line ${i + 1}:\n  - ${(x[i] ?? '').slice(0, 160)}\n  + ${(y[i] ?? '').slice(0, 160)}`);
  }
  return shown.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const bad = args.filter((a) => a !== '--check');
  if (bad.length) {
    console.error(`wire-docs: unknown argument ${bad[0]}; the choices: --check (or none, to rewrite ${DOC})`);
    process.exit(2);
  }
  const text = readFileSync(join(ROOT, DOC), 'utf8');
  const next = render(text);
  if (args.includes('--check')) {
    if (next !== text) {
      console.error(`${DOC}: its tables differ from ${SCHEMA} (- the doc, + the schema):\n${diff(text, next)}\nregenerate them: node scripts/wire-docs.mjs`);
      process.exit(1);
    }
    console.log(`${DOC}: its tables match ${SCHEMA}`);
  } else if (next !== text) {
    writeFileSync(join(ROOT, DOC), next);
    console.log(`${DOC}: tables regenerated from ${SCHEMA}`);
  }
}
