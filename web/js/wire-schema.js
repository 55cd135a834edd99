// A validator for web/data/wire-schema.json, the WebSocket protocol's one description, and
// for the small subset of JSON Schema 2020-12 it is written in. No DOM: the node tests import
// it as is, and a page may fetch /data/wire-schema.json and check a message with it.
// tests/web/wire_schema.cc is the server test's twin of this file: the same subset, the same
// rules, the same wording of errors.

// Keywords a schema in this subset may use; any other is refused, so the schema cannot
// quietly rely on a rule the validators do not check. Annotations (description, examples,
// x-*) do not validate.
export const KEYWORDS = ['type', 'properties', 'required', 'additionalProperties', 'minProperties', 'items',
  'prefixItems', 'minItems', 'maxItems', 'enum', 'const', 'minimum', 'maximum', '$ref', 'oneOf'];
const ANNOTATIONS = ['$schema', '$id', '$defs', 'title', 'description', 'examples'];
export const TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'];

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function typeOf(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function hasType(v, t) {
  const actual = typeOf(v);
  return actual === t || (t === 'number' && actual === 'integer' && Number.isFinite(v));
}

function equal(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// "#/$defs/name" -> the schema there; throws naming the reference when it leads nowhere.
export function resolve(root, ref) {
  if (!ref.startsWith('#/')) throw new Error(`$ref ${ref}: only "#/..." references are in the subset`);
  let node = root;
  for (const part of ref.slice(2).split('/')) {
    node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (node === undefined) throw new Error(`$ref ${ref}: no such schema`);
  }
  return node;
}

// Checks that a schema uses only the subset; returns the problems ("at: what"), [] when none.
export function checkSubset(root) {
  const problems = [];
  const walk = (s, at) => {
    if (!isObject(s)) {
      problems.push(`${at}: expected a schema object`);
      return;
    }
    for (const k of Object.keys(s)) {
      if (!KEYWORDS.includes(k) && !ANNOTATIONS.includes(k) && !k.startsWith('x-')) {
        problems.push(`${at}: keyword "${k}" is not in the subset (${KEYWORDS.join(', ')})`);
      }
    }
    const types = s.type === undefined ? [] : [].concat(s.type);
    for (const t of types) if (!TYPES.includes(t)) problems.push(`${at}.type: "${t}" is not one of ${TYPES.join(', ')}`);
    if (s.$ref !== undefined) {
      try {
        resolve(root, s.$ref);
      } catch (e) {
        problems.push(`${at}: ${e.message}`);
      }
    }
    for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, `${at}.properties.${k}`);
    for (const [k, v] of Object.entries(s.$defs ?? {})) walk(v, `${at}.$defs.${k}`);
    if (isObject(s.additionalProperties)) walk(s.additionalProperties, `${at}.additionalProperties`);
    if (s.items !== undefined) walk(s.items, `${at}.items`);
    (s.prefixItems ?? []).forEach((v, i) => walk(v, `${at}.prefixItems[${i}]`));
    (s.oneOf ?? []).forEach((v, i) => walk(v, `${at}.oneOf[${i}]`));
    for (const r of s.required ?? []) {
      if (!s.properties || !(r in s.properties)) problems.push(`${at}.required: "${r}" is not among its properties`);
    }
  };
  walk(root, '#');
  return problems;
}

// The branch of a oneOf that a discriminating member picks (x-discriminator, else "type"):
// null when the branches are not told apart by it.
function discriminate(root, s, value) {
  const key = s['x-discriminator'] ?? 'type';
  const branches = s.oneOf.map((b) => (b.$ref ? resolve(root, b.$ref) : b));
  const tags = branches.map((b) => b.properties?.[key]?.const);
  if (tags.some((t) => t === undefined)) return null;
  return { key, tags, branches, refs: s.oneOf.map((b) => b.$ref ?? null) };
}

// Validates `value` against `schema` (a node of `root`). Each problem is {path, rule,
// message}: path is the JSON path in the value ("display.loads[0].id"), rule the keyword
// broken. seen(pointer) is called with the schema pointer of every property present, for
// coverage (which properties a run never saw).
export function validate(root, schema, value, path = '$', { seen = null, pointer = '#' } = {}) {
  const problems = [];
  const check = (s, v, p, ptr) => {
    if (s.$ref !== undefined) {
      check(resolve(root, s.$ref), v, p, s.$ref);
      return;
    }
    const bad = (rule, message) => problems.push({ path: p, rule, message });
    if (s.type !== undefined) {
      const types = [].concat(s.type);
      if (!types.some((t) => hasType(v, t))) {
        bad('type', `expected ${types.join(' or ')}, got ${typeOf(v) === 'integer' ? 'number' : typeOf(v)} ${JSON.stringify(v)?.slice(0, 40)}`);
        return;
      }
    }
    if (s.const !== undefined && !equal(v, s.const)) bad('const', `expected ${JSON.stringify(s.const)}, got ${JSON.stringify(v)?.slice(0, 40)}`);
    if (s.enum !== undefined && !s.enum.some((e) => equal(e, v))) {
      bad('enum', `${JSON.stringify(v)?.slice(0, 40)} is not one of ${s.enum.map((e) => JSON.stringify(e)).join(', ')}`);
    }
    if (typeof v === 'number') {
      if (s.minimum !== undefined && v < s.minimum) bad('minimum', `${v} is below ${s.minimum}`);
      if (s.maximum !== undefined && v > s.maximum) bad('maximum', `${v} is above ${s.maximum}`);
    }
    if (s.oneOf !== undefined) {
      const d = isObject(v) ? discriminate(root, s, v) : null;
      if (d) {
        const i = d.tags.findIndex((t) => equal(t, v[d.key]));
        if (i < 0) {
          bad('oneOf', `${d.key} ${JSON.stringify(v[d.key])} is not one of ${d.tags.map((t) => JSON.stringify(t)).join(', ')}`);
        } else {
          check(d.branches[i], v, p, d.refs[i] ?? `${ptr}/oneOf/${i}`);
        }
      } else {
        const results = s.oneOf.map((b) => validate(root, b, v, p));
        const ok = results.filter((r) => r.length === 0).length;
        if (ok !== 1) {
          bad('oneOf', ok === 0 ? `matches none of ${s.oneOf.length} choices (first: ${results[0][0]?.path}: ${results[0][0]?.message})` : `matches ${ok} choices, expected one`);
        } else if (seen) {
          const i = results.findIndex((r) => r.length === 0);
          check(s.oneOf[i], v, p, s.oneOf[i].$ref ?? `${ptr}/oneOf/${i}`);
        }
      }
    }
    if (isObject(v)) {
      for (const r of s.required ?? []) if (!(r in v)) bad('required', `missing "${r}"`);
      if (s.minProperties !== undefined && Object.keys(v).length < s.minProperties) {
        bad('minProperties', `expected at least ${s.minProperties} members, got ${Object.keys(v).length}`);
      }
      for (const [k, x] of Object.entries(v)) {
        const sub = s.properties?.[k];
        const at = `${p}.${k}`;
        if (sub !== undefined) {
          if (seen) seen(`${ptr}/properties/${k}`);
          check(sub, x, at, `${ptr}/properties/${k}`);
        } else if (s.additionalProperties === false) {
          bad('additionalProperties', `"${k}" is not in the schema (it has: ${Object.keys(s.properties ?? {}).join(', ')})`);
        } else if (isObject(s.additionalProperties)) {
          check(s.additionalProperties, x, at, `${ptr}/additionalProperties`);
        }
      }
    }
    if (Array.isArray(v)) {
      if (s.minItems !== undefined && v.length < s.minItems) bad('minItems', `expected at least ${s.minItems} items, got ${v.length}`);
      if (s.maxItems !== undefined && v.length > s.maxItems) bad('maxItems', `expected at most ${s.maxItems} items, got ${v.length}`);
      const prefix = s.prefixItems ?? [];
      v.forEach((x, i) => {
        if (i < prefix.length) check(prefix[i], x, `${p}[${i}]`, `${ptr}/prefixItems/${i}`);
        else if (s.items !== undefined) check(s.items, x, `${p}[${i}]`, `${ptr}/items`);
      });
    }
  };
  check(schema, value, path, pointer);
  return problems;
}

// One line per problem: "display.loads[0].id: type: expected integer or string, got null".
export function describeProblems(problems) {
  return problems.map((e) => `${e.path}: ${e.rule}: ${e.message}`).join('\n');
}

// Every property the schema defines under `ref`, as schema pointers (following $ref, items,
// prefixItems, oneOf and additionalProperties; each $ref once): what a run should see.
export function propertyPointers(root, ref) {
  const out = new Set();
  const visited = new Set();
  const walk = (s, ptr) => {
    if (s.$ref !== undefined) {
      if (visited.has(s.$ref)) return;
      visited.add(s.$ref);
      walk(resolve(root, s.$ref), s.$ref);
      return;
    }
    for (const [k, v] of Object.entries(s.properties ?? {})) {
      out.add(`${ptr}/properties/${k}`);
      walk(v, `${ptr}/properties/${k}`);
    }
    if (isObject(s.additionalProperties)) walk(s.additionalProperties, `${ptr}/additionalProperties`);
    if (s.items !== undefined) walk(s.items, `${ptr}/items`);
    (s.prefixItems ?? []).forEach((v, i) => walk(v, `${ptr}/prefixItems/${i}`));
    (s.oneOf ?? []).forEach((v, i) => walk(v, v.$ref ?? `${ptr}/oneOf/${i}`));
  };
  walk(resolve(root, ref), ref);
  return [...out];
}

// The schema of a message: the definition of `type` in one direction ("to_browser" or
// "to_server"); null when that direction has no such message.
export function messageSchema(root, direction, type) {
  for (const b of resolve(root, `#/$defs/${direction}`).oneOf) {
    const s = resolve(root, b.$ref);
    if (s.properties?.type?.const === type) return { ref: b.$ref, schema: s };
  }
  return null;
}
