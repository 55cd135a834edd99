// scripts/start.sh builds what the README says it builds: the server and every tool of the
// README's "Other tools, built by `scripts/start.sh`" table. Needs no build.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// The tools of the README's table under the line naming start.sh: the first cell of each row.
function readmeTools() {
  const lines = readFileSync(path.join(REPO, 'README.md'), 'utf8').split('\n');
  const at = lines.findIndex((l) => l.includes('built by `scripts/start.sh`'));
  assert.ok(at >= 0, 'the README says which tools scripts/start.sh builds');
  const tools = [];
  for (const line of lines.slice(at + 1)) {
    if (tools.length && !line.startsWith('|')) break;
    const m = line.match(/^\| `(clamsim-[a-z]+)` \|/);
    if (m) tools.push(m[1]);
  }
  return tools;
}

// The targets of start.sh's cmake --build line (joined over its backslashed lines).
function startTargets() {
  const text = readFileSync(path.join(REPO, 'scripts/start.sh'), 'utf8').replace(/\\\n/g, ' ');
  const build = text.split('\n').find((l) => /cmake --build/.test(l));
  assert.ok(build, 'start.sh runs cmake --build');
  return build.split('--target')[1].trim().split(/\s+/);
}

test('start.sh builds the server and every tool the README names', () => {
  const tools = readmeTools();
  assert.ok(tools.length >= 6, `the README's tools: ${tools.join(', ')}`);
  const targets = startTargets();
  assert.ok(targets.includes('clamsim-server'));
  const missing = tools.filter((t) => !targets.includes(t));
  assert.deepEqual(missing, [], `README names ${missing.join(', ')} but start.sh does not build them`);
});
