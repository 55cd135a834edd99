// The operator's controls, shared by every page: read every animation frame and sent at
// once when they change, and at a steady 20 Hz, drift-corrected (the heartbeat); zero while
// the tab is hidden, while the mapping screen is open, after a (re)connect until the
// controls are back at neutral, and when the joystick goes away. Whether they are sent at
// all is the page's to say (c.page.drives()): a trainee's page always, an observer's only
// while its instructor holds the controls, a replay never. Its state is controlsState(),
// kept in the page's context as c.controls.

import { controlMessage, ZERO_VOLTS } from '../protocol.js';
import { VIEWS } from '../views.js';
import { isTypingTarget, keyboardLayout } from '../input.js';
import { isActionKey } from '../keyboard.js';
import { setView } from './drawing.js';
import { restartPressed } from './task-view.js';

// 20 Hz, as the thesis's multimedia timer (3.3): the rate controls are sent at, whatever
// frame period the server granted (the server allows for it in its message limit)
const CONTROL_PERIOD_MS = 50;

export function controlsState() {
  return {
    interlock: { on: true, why: 'connecting' },  // zero until the controls are at neutral
    lostDevice: null,       // the joystick that went away, until one comes back
    // controls are numbered per connection, so a frame's control_seq says which it
    // reflects (latency.js)
    controlCount: 0,        // controls sent on this connection since its hello
    helloSeen: false,       // this connection's hello has come: its count starts at 0
    drivingVolts: ZERO_VOLTS,   // what this page sends now: the sound's demand
    nextSend: performance.now(),   // the heartbeat's next due time
  };
}

// One `control` out, counted (the server counts them too: display.control_seq); change:
// sent because the volts changed, so the latency probe follows it.
export function sendVolts(c, volts, now, change) {
  const k = c.controls;
  if (!c.connection.isOpen || !k.helloSeen || !c.page.drives()) return false;
  if (!c.connection.send(controlMessage(volts))) return false;
  k.controlCount += 1;
  c.stats.controlsSent += 1;
  c.controlSender.sent(volts, now, change);
  if (change) c.probe.sent(k.controlCount, now);
  return true;
}

// Where the volts come from when nothing holds them at zero.
function sourceWords(c, p) {
  const from = [];
  if (p.devices.length) from.push(`joystick: ${p.devices.join(', ')}${p.bound.length ? '' : ' (nothing mapped)'}`);
  if (p.keyboard) from.push('keyboard');
  if (c.controls.lostDevice && !p.devices.length) {
    return { source: `Joystick ${c.controls.lostDevice} disconnected: its signals are zero`, level: 'error' };
  }
  return { source: from.length ? from.join(' + ') : 'No joystick: keyboard only', level: 'ok' };
}

// The volts as the interlocks leave them: zero while hidden, while mapping, and until the
// controls come back to neutral after anything that set the interlock.
function heldVolts(c, p) {
  const k = c.controls;
  const neutral = p.volts.every((v) => v === 0);
  if (document.hidden) {
    k.interlock = { on: true, why: 'tab was hidden' };
    return { volts: ZERO_VOLTS, source: 'Tab hidden: sending zero', level: 'warn' };
  }
  if (c.mappingScreen.isOpen) {
    // moving a stick to learn it must not move the crane
    k.interlock = { on: true, why: 'mapping screen was open' };
    return { volts: ZERO_VOLTS, source: 'Joystick mapping open: sending zero', level: 'warn' };
  }
  if (k.interlock.on && !neutral) {
    return { volts: ZERO_VOLTS, source: `Sending zero (${k.interlock.why}): return the controls to neutral`, level: 'warn' };
  }
  if (neutral) k.interlock.on = false;
  return { volts: p.volts, ...sourceWords(c, p) };
}

// What the operator's controls say now, and what the page makes of it.
function readControls(c) {
  const p = c.input.poll();
  if (p.nextView) setView(c, c.draw.views ? c.draw.views.next() : c.draw.view);
  if (p.restart && !c.mappingScreen.isOpen) restartPressed(c, 'joystick');
  const { volts, source, level } = heldVolts(c, p);
  const watchingWords = c.page.watchingWords();
  if (watchingWords) return { volts: ZERO_VOLTS, source: watchingWords, level: 'warn', watching: true };  // nothing is sent
  if (!c.connection.isOpen) return { volts, source: `Not connected: controls not sent. ${source}`, level: 'error', watching: false };
  // an instructor holds the controls: what this page sends is ignored, and it says so
  const ignored = c.page.ignoredWhy();
  if (ignored) return { volts, source: `Ignored: ${ignored}`, level: 'warn', watching: false };
  return { volts, source, level, watching: false };
}

function showControls(c, r) {
  c.controls.drivingVolts = r.watching ? ZERO_VOLTS : r.volts;
  c.hud.controls(r.volts, r.source, r.level);
}

// Every animation frame: a change goes out at once (at most one per ~16 ms, within the
// server's message allowance).
export function pollControls(c, now) {
  const r = readControls(c);
  if (!r.watching && c.controlSender.shouldSend(r.volts, now) && sendVolts(c, r.volts, now, true)) showControls(c, r);
}

// The steady 20 Hz, whether or not anything changed.
export function heartbeat(c) {
  const k = c.controls;
  const r = readControls(c);
  const now = performance.now();
  if (!r.watching) sendVolts(c, r.volts, now, false);
  showControls(c, r);
  k.nextSend += CONTROL_PERIOD_MS;
  if (k.nextSend < now - CONTROL_PERIOD_MS) k.nextSend = now + CONTROL_PERIOD_MS;  // after a stall
  setTimeout(() => heartbeat(c), Math.max(0, k.nextSend - now));
}

// A joystick that comes or goes, or a tab hidden: zero at once, and the interlock until
// the controls are back at neutral.
export function listenToDevices(c) {
  window.addEventListener('gamepaddisconnected', (ev) => {
    c.controls.lostDevice = ev.gamepad.id;
    c.controls.interlock = { on: true, why: 'joystick disconnected' };
    sendVolts(c, ZERO_VOLTS, performance.now(), false);
    if (c.mappingScreen.isOpen) c.mappingScreen.open();
  });
  window.addEventListener('gamepadconnected', () => {
    c.controls.lostDevice = null;
    c.controls.interlock = { on: true, why: 'joystick connected' };
    if (c.mappingScreen.isOpen) c.mappingScreen.open();
  });
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) sendVolts(c, ZERO_VOLTS, performance.now(), false);
  });
  window.addEventListener('blur', () => c.input.clearKeys());
}

// The page's own keys and buttons: views 1-5, M for the mapping, the restart and help keys
// of the server's layout, Escape.
export function listenToShortcuts(c) {
  document.getElementById('view-buttons').addEventListener('click', (ev) => {
    const b = ev.target.closest('[data-view]');
    if (b) setView(c, b.dataset.view);
  });
  document.getElementById('open-mapping').addEventListener('click', () => c.mappingScreen.open());
  document.addEventListener('keydown', (ev) => {
    // typing a name (or in any field) is not a shortcut
    if (c.mappingScreen.isOpen || ev.ctrlKey || ev.metaKey || ev.altKey || isTypingTarget(ev.target)) return;
    const m = /^(?:Digit|Numpad)([1-5])$/.exec(ev.code);
    if (m) setView(c, VIEWS[Number(m[1]) - 1]);
    else if (ev.code === 'KeyM') c.mappingScreen.open();
    else if (isActionKey(keyboardLayout(), 'restart', ev) && !ev.repeat) restartPressed(c, `key ${keyboardLayout().actions.restart.label}`);
    else if (isActionKey(keyboardLayout(), 'help', ev) && !ev.repeat) c.help.toggle();
    else if (ev.code === 'Escape' && c.help.isOpen) c.help.close();
    else if (ev.code === 'Escape' && c.taskUi.reportOpen) c.taskUi.hideReport();
  });
}
