// Every function in web/js/ (models/ included: procedural code, not data) is at most
// MAX_LINES long, counted from the line of its head to the line of its closing brace.
// A long function is split into named, short ones; tables of data may stay long, as they
// are not functions. The files other work has open keep their current long functions on an
// allowlist until that work lands; an entry that is no longer long fails the test too, so the
// list only shrinks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'acorn';

const MAX_LINES = 80;
const WEB_JS = fileURLToPath(new URL('../js/', import.meta.url));

// file (relative to web/js/) -> qualified names (enclosing functions joined by '.') of the
// functions there that may stay longer than MAX_LINES for now. main.js, protocol.js, task.js,
// replay.js, instructor.js, observer.js and timeline-words.js were being changed elsewhere
// when the rest of web/js/ was split, so they were left alone; none of them had a function
// over MAX_LINES then, so the list is empty. A long function that lands in one of them
// before it is split goes here by name, and comes off when it is split.
const ALLOWED = {
};

function jsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return jsFiles(p);
    return e.name.endsWith('.js') ? [p] : [];
  });
}

const isFunction = (n) => n.type === 'FunctionDeclaration' || n.type === 'FunctionExpression'
  || n.type === 'ArrowFunctionExpression';

// the name a function is known by: its own, or that of what it is assigned to
function nameOf(node, parent) {
  if (node.id) return node.id.name;
  if (!parent) return '<anonymous>';
  const key = (k) => (k.type === 'Identifier' ? k.name : k.type === 'Literal' ? String(k.value) : '<computed>');
  if (parent.type === 'VariableDeclarator') return key(parent.id);
  if (parent.type === 'Property' || parent.type === 'MethodDefinition' || parent.type === 'PropertyDefinition') {
    return key(parent.key);
  }
  if (parent.type === 'AssignmentExpression') {
    const l = parent.left;
    return l.type === 'MemberExpression' ? key(l.property) : key(l);
  }
  return '<anonymous>';
}

// every function of a parsed file: { name (qualified), line, lines }
export function functionsOf(ast) {
  const out = [];
  const walk = (node, parent, outer) => {
    if (!node || typeof node.type !== 'string') return;
    let scope = outer;
    if (isFunction(node)) {
      const own = nameOf(node, parent);
      scope = outer ? `${outer}.${own}` : own;
      out.push({ name: scope, line: node.loc.start.line, lines: node.loc.end.line - node.loc.start.line + 1 });
    } else if ((node.type === 'ClassDeclaration' || node.type === 'ClassExpression') && node.id) {
      scope = outer ? `${outer}.${node.id.name}` : node.id.name;
    }
    for (const [k, v] of Object.entries(node)) {
      if (k === 'loc') continue;
      if (Array.isArray(v)) for (const c of v) walk(c, node, scope);
      else if (v && typeof v === 'object') walk(v, node, scope);
    }
  };
  walk(ast, null, '');
  return out;
}

// The long functions of some sources ({ rel, text }) that `allowed` does not name, and the
// names on `allowed` that are not long (or whose file is not among the sources).
export function lengthReport(sources, allowed, max = MAX_LINES) {
  const offenders = [], stale = [];
  for (const { rel, text } of sources) {
    const ast = parse(text, { ecmaVersion: 'latest', sourceType: 'module', locations: true });
    const long = functionsOf(ast).filter((f) => f.lines > max);
    const left = new Set(allowed[rel] ?? []);
    for (const f of long) {
      if (!left.delete(f.name)) offenders.push(`web/js/${rel}:${f.line} ${f.name} (${f.lines} lines)`);
    }
    for (const name of left) stale.push(`web/js/${rel} ${name}`);
  }
  for (const rel of Object.keys(allowed)) {
    if (!sources.some((s) => s.rel === rel)) stale.push(`web/js/${rel} (no such file)`);
  }
  return { offenders, stale };
}

test('function length: no function in web/js/ longer than MAX_LINES lines', () => {
  const sources = jsFiles(WEB_JS).map((file) => ({
    rel: path.relative(WEB_JS, file).split(path.sep).join('/'),
    text: readFileSync(file, 'utf8'),
  }));
  const { offenders, stale } = lengthReport(sources, ALLOWED);
  for (const o of offenders) console.log(`too long: ${o}`);
  for (const s of stale) console.log(`allowlisted but not longer than ${MAX_LINES} lines: ${s}`);
  assert.deepEqual(offenders, [], `functions longer than ${MAX_LINES} lines (split them):\n${offenders.join('\n')}`);
  assert.deepEqual(stale, [], `on the allowlist but no longer long (remove it from the list):\n${stale.join('\n')}`);
});

// the check itself, on made-up sources: a function of n lines in all its forms
const body = (n) => Array.from({ length: n - 2 }, (_, i) => `  x += ${i};`).join('\n');
test('function length: long functions are named by where they sit; the allowlist cannot rot', () => {
  const text = [
    `export function long() {\n${body(81)}\n}`,
    `function short() {\n${body(80)}\n}`,
    `const outer = () => {\n  const inner = function () {\n${body(81)}\n  };\n};`,
    `const o = { method() {\n${body(81)}\n} };`,
    `class C { m() {\n${body(81)}\n} }`,
  ].join('\n');
  const { offenders, stale } = lengthReport([{ rel: 'a.js', text }], { 'a.js': ['long', 'short'], 'gone.js': ['f'] });
  // 'long' (81 lines) is allowed; short is exactly the limit; inner (81) makes outer (83)
  // long too; a method is named by its key, in a class after the class
  assert.deepEqual(offenders, ['web/js/a.js:162 outer (83 lines)', 'web/js/a.js:163 outer.inner (81 lines)',
    'web/js/a.js:245 method (81 lines)', 'web/js/a.js:326 C.m (81 lines)']);
  assert.deepEqual(stale, ['web/js/a.js short', 'web/js/gone.js (no such file)']);
});
