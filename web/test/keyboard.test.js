import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseKeyboardLayout, keyHint, isActionKey } from '../js/keyboard.js';
import { keyboardRows, joystickRows, pageRows } from '../js/help.js';
import { defaultMapping } from '../js/mapping.js';

const raw = () => JSON.parse(readFileSync(new URL('../../config/keyboard.json', import.meta.url)));

test('keyboard: config/keyboard.json parses; the hint line says every key', () => {
  const k = parseKeyboardLayout(raw());
  assert.deepEqual(k.signals.map((s) => s.name), ['swing', 'boom', 'telescope', 'cable1', 'cable2']);
  assert.deepEqual(k.bindings.KeyQ, [3, 1]);
  assert.equal(keyHint(k), 'Keys: ←/→ swing · ↑/↓ boom · W/S telescope · Q/A cable 1 · E/D cable 2 · '
    + 'Shift half speed · R restart task · ? help');
});

test('keyboard: a bad layout is refused naming the field', () => {
  const noKey = raw();
  delete noKey.signals.boom.plus.key;
  assert.throws(() => parseKeyboardLayout(noKey), { message: 'keyboard.signals.boom.plus.key: missing' });
  const twice = raw();
  twice.signals.telescope.plus.key = 'ArrowUp';
  assert.throws(() => parseKeyboardLayout(twice), { message: 'keyboard.signals.telescope.plus.key: ArrowUp is already keyboard.signals.boom.plus\'s key' });
  const noHelp = raw();
  delete noHelp.actions.help;
  assert.throws(() => parseKeyboardLayout(noHelp), { message: 'keyboard.actions.help: missing' });
  assert.throws(() => parseKeyboardLayout(null), { message: 'keyboard: expected an object' });
  const badLabel = raw();
  badLabel.signals.swing.label = 3;
  assert.throws(() => parseKeyboardLayout(badLabel), { message: 'keyboard.signals.swing.label: expected a non-empty string, got 3' });
});

test('keyboard: the help key is ? by character or by the Slash key', () => {
  const k = parseKeyboardLayout(raw());
  assert.equal(isActionKey(k, 'help', { code: 'Slash', key: '/' }), true);
  assert.equal(isActionKey(k, 'help', { code: 'Minus', key: '?' }), true);  // a German keyboard
  assert.equal(isActionKey(k, 'restart', { code: 'KeyR', key: 'r' }), true);
  assert.equal(isActionKey(k, 'restart', { code: 'KeyN', key: 'n' }), false);
  assert.equal(isActionKey(null, 'restart', { code: 'KeyR', key: 'r' }), false);
});

test('help: keyboard rows from the layout, joystick rows from the resolved mapping, page rows from titles', () => {
  const k = parseKeyboardLayout(raw());
  const rows = keyboardRows(k);
  assert.deepEqual(rows[0], ['←', 'swing counter-clockwise']);
  assert.deepEqual(rows[7], ['A', 'cable 1 pay out (main hoist)']);
  assert.deepEqual(rows.slice(10), [['R', 'restart task'], ['?', 'help'], ['Shift', 'half speed']]);
  assert.deepEqual(keyboardRows(null), []);
  const [pad] = joystickRows([{ key: 'stick', mapping: defaultMapping() }], k);
  assert.equal(pad.device, 'stick');
  assert.deepEqual(pad.rows.slice(0, 2), [['axis 0 inverted', 'swing'], ['axis 1', 'boom']]);
  assert.deepEqual(pad.rows.slice(5), [['button 1', 'Next view'], ['button 9', 'Restart task']]);
  assert.deepEqual(pageRows([{ title: 'Full view (1)' }, { title: 'Joystick mapping (M)' }, { title: '' }]),
    [['1', 'Full view'], ['M', 'Joystick mapping']]);
});

test('keyboard: the README and docs/web-client.md show the hint line the shipped layout makes', () => {
  const hint = keyHint(parseKeyboardLayout(raw()));
  for (const doc of ['../../README.md', '../../docs/web-client.md']) {
    const text = readFileSync(new URL(doc, import.meta.url), 'utf8');
    assert.ok(text.includes(`\n${hint}\n`), `${doc} should show: ${hint}`);
  }
});
