// The README's and docs' shell commands, checked against the build: every binary path they
// name is where the build puts it, every flag they pass is one the binary's --help lists,
// and the short ones (--help, --version, a clamsim-sim run cut to 1 s of simulated time)
// actually run. Also: every binary answers --version with the one version, and every
// --help ends with the one exit-status table that docs/deploy.md shows.
//
// Reads whatever *.md files exist when it runs, so documents added by others are checked
// too. CLAMSIM_BUILD_DIR is the build tree (ctest sets it); without it the test skips.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUILD = process.env.CLAMSIM_BUILD_DIR ?? '';
const skip = !BUILD ? 'CLAMSIM_BUILD_DIR is not set (the build tree, e.g. build/debug-asan)'
  : !existsSync(BUILD) ? `CLAMSIM_BUILD_DIR=${BUILD} does not exist` : false;

// The binaries every user runs; each must answer --version.
const SHIPPED = ['clamsim-server', 'clamsim-sim', 'clamsim-receiver', 'clamsim-loadgen',
  'clamsim-wsload', 'clamsim-accounts', 'clamsim-fuzz', 'clamsim-plot'];
const SHELL_BLOCKS = new Set(['', 'sh', 'bash', 'shell', 'console']);
const RUN_TIMEOUT_MS = 120000;  // an ASan clamsim-sim run of 1 simulated second takes ~2 s

// ---- reading the documents -------------------------------------------------------------

function documents() {
  const docs = readdirSync(path.join(REPO, 'docs')).filter((f) => f.endsWith('.md')).sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

// Shell lines of a document: fenced blocks marked sh/bash/shell/console or unmarked, and
// indented (4-space) lines outside fences that start a clamsim command. Lines ending in a
// backslash are joined. Each: { file, line, text, block } (block: the block's index).
function shellLines(file) {
  const lines = readFileSync(path.join(REPO, file), 'utf8').split('\n');
  const out = [];
  let fence = null;   // the open fence's language, or null outside a fence
  let block = 0;
  let pending = null;
  const push = (i, text) => {
    if (pending) {
      pending.text += ' ' + text.trim();
    } else {
      pending = { file, line: i + 1, text: text.trim(), block };
    }
    if (pending.text.endsWith('\\')) {
      pending.text = pending.text.slice(0, -1).trim();
    } else {
      out.push(pending);
      pending = null;
    }
  };
  lines.forEach((raw, i) => {
    const f = raw.match(/^\s*```\s*([\w-]*)/);
    if (f) {
      fence = fence === null ? f[1].toLowerCase() : null;
      block += 1;
      pending = null;
      return;
    }
    if (fence !== null) {
      if (SHELL_BLOCKS.has(fence)) push(i, raw);
    } else if (pending && /^ {4,}\S/.test(raw)) {
      push(i, raw);  // the indented command goes on
    } else if (/^ {4,}(\w+=\S+\s+)*(build\/\S+\/)?clamsim-[a-z]+(\s|$)/.test(raw)) {
      push(i, raw);
    } else {
      pending = null;
    }
  });
  return out;
}

// Words of a shell command, quotes removed; stops at a comment.
function words(text) {
  const out = [];
  const re = /'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g;
  for (let m; (m = re.exec(text)) !== null;) {
    if (m[3] !== undefined && m[3].startsWith('#')) break;
    out.push(m[1] ?? m[2] ?? m[3]);
  }
  return out;
}

// The commands of a line: split at |, &&, ||, ; and a trailing &.
function commands(text) {
  const noComment = text.replace(/(^|\s)#.*$/, '');
  return noComment.split(/\s*(?:\|\||&&|\||;|&(?=\s|$))\s*/).map(words).filter((w) => w.length);
}

const BINARY = /^(?:\w+=)?((?:build\/([^/\s]+)\/)?(?:[\w.<>-]+\/)*(clamsim-[a-z]+))$/;

// { name, index } of the clamsim binary a command runs, or null: its first word after
// VAR=value assignments, or the first clamsim-* word of a podman/docker/kubectl command
// (run in a container) that names a shipped binary. A clamsim-* word elsewhere is a value
// (cmake --target, --spawn-server, a volume's name).
function binaryOf(argv) {
  let i = 0;
  while (i < argv.length && /^\w+=/.test(argv[i])) i += 1;
  if (i >= argv.length) return null;
  const m = argv[i].match(BINARY);
  if (m) return { name: m[3], index: i };
  if (!['podman', 'docker', 'kubectl'].includes(argv[i])) return null;
  for (let j = i + 1; j < argv.length; j += 1) {
    if (SHIPPED.includes(argv[j])) return { name: argv[j], index: j };
  }
  return null;
}

// ---- the build tree --------------------------------------------------------------------

// clamsim-* executables of the build tree: name -> [path relative to the build dir].
function builtBinaries() {
  const found = new Map();
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'CMakeFiles' && !e.name.startsWith('.')) walk(p);
      } else if (e.isFile() && /^clamsim-[a-z-]+$/.test(e.name) && (statSync(p).mode & 0o111)) {
        const list = found.get(e.name) ?? [];
        list.push(path.relative(BUILD, p));
        found.set(e.name, list);
      }
    }
  };
  walk(BUILD);
  return found;
}

const helpCache = new Map();
function helpOf(binary) {
  if (!helpCache.has(binary)) {
    const r = spawnSync(binary, ['--help'], { encoding: 'utf8', timeout: 30000 });
    helpCache.set(binary, { status: r.status, text: `${r.stdout ?? ''}${r.stderr ?? ''}` });
  }
  return helpCache.get(binary);
}

function escaped(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); }

// Does a --help text list this flag (as a flag, not inside another word)?
function lists(help, flag) {
  return new RegExp(`(^|[\\s\\[(,|])${escaped(flag)}(?=[\\s=,\\])|]|$)`, 'm').test(help);
}

const projectVersion = () =>
  readFileSync(path.join(REPO, 'CMakeLists.txt'), 'utf8').match(/project\(\w+\s+VERSION\s+([\d.]+)/)[1];

// ---- the checks ------------------------------------------------------------------------

// Every documented command: { file, line, block, argv, bin } (bin null when the command
// is not a clamsim binary; its words may still name one, as a value).
function documentedCommands() {
  const out = [];
  for (const file of documents()) {
    for (const l of shellLines(file)) {
      for (const argv of commands(l.text)) out.push({ ...l, argv, bin: binaryOf(argv) });
    }
  }
  return out;
}
const clamsimCommands = () => documentedCommands().filter((c) => c.bin);

test('documented binary paths are where the build puts them', { skip }, () => {
  const built = builtBinaries();
  const problems = [];
  let checked = 0;
  for (const c of documentedCommands()) {
    // every word that is a path into a build tree: the command and values like --spawn-server
    for (const w of c.argv) {
      const m = w.match(BINARY);
      if (!m || !m[2]) continue;
      const rel = m[1].slice(`build/${m[2]}/`.length);
      const where = built.get(m[3]);
      if (!where) {
        problems.push(`${c.file}:${c.line}: ${m[1]}: the build makes no ${m[3]}`);
        continue;
      }
      checked += 1;
      if (!where.includes(rel))
        problems.push(`${c.file}:${c.line}: ${m[1]}: the build puts ${m[3]} at build/<dir>/${where.join(' or ')}`);
    }
  }
  assert.ok(checked > 5, `only ${checked} build paths found in the docs`);
  assert.deepEqual(problems, []);
});

test('every documented flag is one the binary lists in --help', { skip }, () => {
  const built = builtBinaries();
  const problems = [];
  let checked = 0;
  for (const c of clamsimCommands()) {
    const where = built.get(c.bin.name);
    if (!where) continue;  // reported by the path test
    const help = helpOf(path.join(BUILD, where[0])).text;
    for (const word of c.argv.slice(c.bin.index + 1)) {
      const w = word.replace(/^\[+/, '');  // a synopsis's [--flag VALUE]
      if (!w.startsWith('--') || w === '--') continue;
      const flag = w.split(/[=\]|]/)[0];
      checked += 1;
      if (!lists(help, flag)) problems.push(`${c.file}:${c.line}: ${c.bin.name} ${flag}: not in its --help`);
    }
  }
  assert.ok(checked > 20, `only ${checked} flags found in the docs`);
  assert.deepEqual(problems, []);
});

test('documented --help and --version commands run', { skip }, () => {
  const built = builtBinaries();
  let ran = 0;
  for (const c of clamsimCommands()) {
    const args = c.argv.slice(c.bin.index + 1);
    if (args.length !== 1 || !['--help', '--version'].includes(args[0])) continue;
    const where = built.get(c.bin.name);
    assert.ok(where, `${c.file}:${c.line}: the build makes no ${c.bin.name}`);
    const r = spawnSync(path.join(BUILD, where[0]), args, { encoding: 'utf8', timeout: 30000 });
    assert.equal(r.status, 0, `${c.file}:${c.line}: ${c.argv.join(' ')}: ${r.stderr}`);
    assert.ok(r.stdout.length > 0, `${c.file}:${c.line}: ${c.argv.join(' ')} printed nothing`);
    ran += 1;
  }
  assert.ok(ran >= 1, 'no documented --help or --version command');
});

// clamsim-sim as documented, in a scratch folder that sees the repository's models/ and
// config/, after the block's own "mkdir -p" lines, cut to 1 s of simulated time.
test('documented clamsim-sim runs work', { skip }, (t) => {
  const built = builtBinaries();
  const sim = path.join(BUILD, built.get('clamsim-sim')[0]);
  const gnuplot = spawnSync('gnuplot', ['--version']).status === 0;
  const runs = clamsimCommands().filter((c) => c.bin.name === 'clamsim-sim' && c.argv.includes('--model'));
  assert.ok(runs.length >= 3, `only ${runs.length} clamsim-sim runs in the docs`);
  const mkdirs = new Map();  // "file#block" -> the folders of the block's mkdir -p lines
  for (const c of documentedCommands()) {
    if (c.argv[0] !== 'mkdir' || c.argv[1] !== '-p') continue;
    const key = `${c.file}#${c.block}`;
    mkdirs.set(key, [...(mkdirs.get(key) ?? []), ...c.argv.slice(2)]);
  }
  for (const c of runs) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'clamsim-docs-'));
    try {
      for (const top of ['models', 'config']) symlinkSync(path.join(REPO, top), path.join(dir, top));
      for (const d of mkdirs.get(`${c.file}#${c.block}`) ?? [])
        spawnSync('mkdir', ['-p', d], { cwd: dir });
      const args = [];
      const given = c.argv.slice(c.bin.index + 1);
      for (let i = 0; i < given.length; i += 1) {
        if (given[i] === '--duration') { i += 1; continue; }
        if (given[i] === '--plot' && !gnuplot) { i += 1; continue; }
        args.push(given[i]);
      }
      // a scripted pick-and-place is judged at its end (about 2 simulated minutes): run it
      // whole; a sweep's length is its tones' (--duration there is the set-up script's)
      if (!given.includes('--pick-place') && !given.includes('--chirp')) args.push('--duration', '1');
      const r = spawnSync(sim, args, { cwd: dir, encoding: 'utf8', timeout: RUN_TIMEOUT_MS });
      assert.equal(r.status, 0, `${c.file}:${c.line}: ${c.argv.join(' ')}\n${r.stderr}`);
      const csv = args[args.indexOf('--csv') + 1];
      if (csv !== '-') assert.ok(existsSync(path.join(dir, csv)), `${c.file}:${c.line}: no ${csv}`);
      else assert.match(r.stdout, /^time_s,/, `${c.file}:${c.line}: no CSV on stdout`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (!gnuplot) t.diagnostic('gnuplot not installed: --plot left out of the runs');
});

test('every binary answers --version with the project version', { skip }, () => {
  const built = builtBinaries();
  const version = projectVersion();
  for (const name of SHIPPED) {
    const where = built.get(name);
    assert.ok(where, `the build makes no ${name}`);
    const r = spawnSync(path.join(BUILD, where[0]), ['--version'], { encoding: 'utf8', timeout: 30000 });
    assert.equal(r.status, 0, `${name} --version: ${r.stderr}`);
    assert.equal(r.stdout, `${name} ${version}\n`);
  }
});

test('every --help ends with the one exit-status table, and docs/deploy.md shows it', { skip }, () => {
  const built = builtBinaries();
  const server = helpOf(path.join(BUILD, built.get('clamsim-server')[0])).text;
  const at = server.lastIndexOf('Exit status:\n');
  assert.ok(at >= 0, 'clamsim-server --help has no "Exit status:" table');
  const table = server.slice(at);
  for (const name of SHIPPED) {
    const help = helpOf(path.join(BUILD, built.get(name)[0]));
    assert.equal(help.status, 0, `${name} --help`);
    assert.ok(help.text.endsWith(table), `${name} --help does not end with the exit-status table`);
  }
  const deploy = readFileSync(path.join(REPO, 'docs/deploy.md'), 'utf8');
  assert.ok(deploy.includes('```\n' + table + '```'),
    `docs/deploy.md does not show the table clamsim-server --help prints:\n${table}`);
});
