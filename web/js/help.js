// The help overlay (the ? key or the header's ? button): the controls of the devices in use,
// said from their sources, never from a copy: the keyboard layout the server sent, each
// connected joystick's mapping as mapping.js resolves it, and the page's own shortcuts as
// its buttons name them. Not modal: the crane stays in view and under control. Esc or ?
// closes it.

import { SIGNALS } from './protocol.js';
import { ACTION_LABELS } from './mapping.js';
import { BROWSER_ACTIONS } from './keyboard.js';
import { el } from './dom.js';

// [[key label, what it does]] of the layout (null: none from the server).
export function keyboardRows(layout) {
  if (!layout) return [];
  const rows = [];
  for (const s of layout.signals) {
    rows.push([s.plus.label, `${s.label} ${s.plus.does}`], [s.minus.label, `${s.label} ${s.minus.does}`]);
  }
  for (const name of BROWSER_ACTIONS) rows.push([layout.actions[name].label, layout.actions[name].does]);
  return rows;
}

function inputName(b) {
  return `${b.kind} ${b.index}${b.invert ? ' inverted' : ''}`;
}

// Per resolved device ({key, mapping}): {device, rows: [[input, function]]}. Signals are
// named as the keyboard layout names them when there is one.
export function joystickRows(resolved, layout) {
  return resolved.map(({ key, mapping }) => {
    const rows = [];
    SIGNALS.forEach((signal, i) => {
      const label = layout?.signals[i].label ?? signal;
      for (const b of mapping.signals[signal] ?? []) rows.push([inputName(b), label]);
    });
    for (const [action, b] of Object.entries(mapping.actions)) {
      rows.push([inputName(b), ACTION_LABELS[action]?.[0] ?? action]);
    }
    return { device: key, rows };
  });
}

// The page's shortcuts from its buttons' titles: "Full view (1)" -> ["1", "Full view"].
export function pageRows(buttons) {
  const rows = [];
  for (const b of buttons) {
    const m = /^(.*) \(([^)]+)\)$/.exec(b.title ?? '');
    if (m) rows.push([m[2], m[1]]);
  }
  return rows;
}

function table(rows) {
  return el('table', { class: 'help-table' },
    ...rows.map(([key, what]) => el('tr', {}, el('th', {}, el('kbd', {}, key)), el('td', {}, what))));
}

// dialog: the <dialog>; button: the header's ? button; input: input.js's (resolved());
// layout(): the keyboard layout now; shortcuts(): the page's buttons with a key.
// quality(): a line on the drawing quality (quality.js), or nothing
export function createHelp({ dialog, button, input, layout, shortcuts, layoutError, quality = () => null }) {
  function render() {
    const body = [el('div', { class: 'help-head' }, el('h2', {}, 'Controls'),
      el('button', { type: 'button', class: 'help-close', onclick: close }, 'Close'))];
    const keys = keyboardRows(layout());
    body.push(el('h3', {}, 'Keyboard'),
      keys.length ? table(keys) : el('p', { class: 'help-note' }, `No keyboard layout from the server${layoutError() ? `: ${layoutError()}` : ''}.`));
    const pads = joystickRows(input.resolved(), layout());
    if (!pads.length) body.push(el('h3', {}, 'Joystick'), el('p', { class: 'help-note' }, 'None connected. Plug one in and press a button; Joystick… (M) sets which axis does what.'));
    for (const { device, rows } of pads) {
      body.push(el('h3', {}, `Joystick: ${device}`),
        rows.length ? table(rows) : el('p', { class: 'help-note' }, 'Nothing mapped: Joystick… (M) sets it.'));
    }
    body.push(el('h3', {}, 'Screen'), table(pageRows(shortcuts())));
    if (quality()) body.push(el('p', { class: 'help-note help-quality' }, quality()));
    body.push(
      el('p', { class: 'help-note' }, `Esc or ${layout()?.actions.help.label ?? '?'} closes this.`));
    dialog.replaceChildren(...body);
  }
  function open() {
    render();
    if (!dialog.open) dialog.show();
    button.setAttribute('aria-expanded', 'true');
  }
  function close() {
    if (dialog.open) dialog.close();
    button.setAttribute('aria-expanded', 'false');
  }
  button.addEventListener('click', () => (dialog.open ? close() : open()));
  // a joystick plugged in while it is open is listed at once
  window.addEventListener('gamepadconnected', () => { if (dialog.open) render(); });
  window.addEventListener('gamepaddisconnected', () => { if (dialog.open) render(); });
  return {
    open,
    close,
    toggle() { if (dialog.open) close(); else open(); },
    get isOpen() { return dialog.open; },
  };
}
