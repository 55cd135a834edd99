// The keyboard layout the server gives the page (GET /api/client-config, "keyboard": the
// server's config/keyboard.json, the same file clamsim-receiver --keyboard reads). Pure:
// parse it (errors name the field), and say it back as the header's hint line.

import { SIGNALS } from './protocol.js';

// The actions this page acts on; zero and quit are the receiver's (its presses latch).
export const BROWSER_ACTIONS = ['restart', 'help', 'half_speed'];

function fail(where, what) {
  throw new Error(`${where}: ${what}`);
}

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function text(obj, key, where) {
  const v = obj[key];
  if (typeof v !== 'string' || v === '') {
    fail(`${where}.${key}`, v === undefined ? 'missing' : `expected a non-empty string, got ${JSON.stringify(v)}`);
  }
  return v;
}

function object(obj, key, where) {
  if (!isObject(obj[key])) fail(`${where}.${key}`, obj[key] === undefined ? 'missing' : 'expected an object');
  return obj[key];
}

function binding(obj, key, where) {
  const b = object(obj, key, where);
  const at = `${where}.${key}`;
  return { key: text(b, 'key', at), label: text(b, 'label', at), does: text(b, 'does', at) };
}

// -> { signals: [{name, label, plus, minus}] in ControlSignal order,
//      actions: {restart, help, half_speed, ...}: {key, label, does},
//      bindings: {code: [signal index, direction]} }
export function parseKeyboardLayout(raw, where = 'keyboard') {
  if (!isObject(raw)) fail(where, 'expected an object');
  const rawSignals = object(raw, 'signals', where);
  const signals = SIGNALS.map((name) => {
    const at = `${where}.signals`;
    const s = object(rawSignals, name, at);
    return { name, label: text(s, 'label', `${at}.${name}`), plus: binding(s, 'plus', `${at}.${name}`),
      minus: binding(s, 'minus', `${at}.${name}`) };
  });
  const rawActions = object(raw, 'actions', where);
  const actions = {};
  for (const name of Object.keys(rawActions)) actions[name] = binding(rawActions, name, `${where}.actions`);
  for (const name of BROWSER_ACTIONS) if (!actions[name]) fail(`${where}.actions.${name}`, 'missing');
  const bindings = {};
  const taken = {};
  const take = (code, field) => {
    if (taken[code]) fail(`${field}.key`, `${code} is already ${taken[code]}'s key`);
    taken[code] = field;
  };
  signals.forEach((s, i) => {
    take(s.plus.key, `${where}.signals.${s.name}.plus`);
    take(s.minus.key, `${where}.signals.${s.name}.minus`);
    bindings[s.plus.key] = [i, 1];
    bindings[s.minus.key] = [i, -1];
  });
  for (const [name, a] of Object.entries(actions)) take(a.key, `${where}.actions.${name}`);
  return { signals, actions, bindings };
}

// "Keys: ←/→ swing · ↑/↓ boom · … · Shift half speed · R restart task · ? help"
export function keyHint(layout) {
  const parts = layout.signals.map((s) => `${s.plus.label}/${s.minus.label} ${s.label}`);
  for (const name of ['half_speed', 'restart', 'help']) {
    const a = layout.actions[name];
    parts.push(`${a.label} ${a.does}`);
  }
  return `Keys: ${parts.join(' · ')}`;
}

// Does this key event press the layout's action `name`? '?' is a character more than a
// key (Shift+/ on US keyboards, elsewhere on others): matched by code or by character.
export function isActionKey(layout, name, ev) {
  const a = layout?.actions[name];
  if (!a) return false;
  return ev.code === a.key || (a.key === 'Slash' && ev.key === '?');
}
