// An instructor's page watching a trainee's session (?observe=ID, docs/instructor.md
// "Watch"): the trainee's inputs and events, and the desk that takes or shares the
// controls, messages the trainee and sets faults. Nothing it does reaches the machine
// unless the desk holds the controls. Its state is observerPageState().

import { takeControlMessage, releaseControlMessage, instructorTextMessage, faultMessage,
  clearFaultMessage } from '../protocol.js';
import { observeUrl, observerControlWords } from '../observer.js';
import { createObserverUi } from '../observer-ui.js';
import { deskState, onControl, onAnswer, instructorDrives } from '../desk.js';
import { createDeskUi } from '../desk-ui.js';

export function observerPageState() {
  return {
    observing: null,        // hello.observing once connected
    observedVolts: null,    // the trainee's inputs, as the last `inputs` message gave them
    observeEnded: null,     // why the server stopped (or refused) this observer: final
    desk: deskState(),      // who drives, and this page's place in it (desk.js)
  };
}

// The desk's buttons: each sent if connected, else the desk says why not.
function deskCallbacks(c, o) {
  const sendOr = (message, why) => {
    if (c.connection.isOpen) c.connection.send(message);
    else o.deskUi.error(why);
  };
  return {
    onRequest(request, wait) {
      if (!c.connection.isOpen) return o.deskUi.error('not connected');
      c.connection.send(request === 'release_control' ? releaseControlMessage()
        : takeControlMessage(request === 'share_control', wait));
      // handing back: stop sending at once, not when the server's `control` arrives
      if (request === 'release_control') o.st.desk = { ...o.st.desk, you: false };
      c.controls.interlock = { on: true, why: 'controls taken' };   // the instructor's stick starts at neutral
    },
    onMessage: (text) => sendOr(instructorTextMessage(text), 'not connected: message not sent'),
    onFault: (name, params) => sendOr(faultMessage(name, params), 'not connected: fault not sent'),
    onClearFault: (name, params) => sendOr(clearFaultMessage(name, params), 'not connected'),
  };
}

// The machine is the trainee's: no name and no controls from here.
function hello(o, msg) {
  if (!msg.observing) return;
  const st = o.st;
  st.observing = msg.observing;
  o.ui.show(st.observing);
  o.ui.clearEvents();
  st.desk = deskState();
  o.deskUi.show(st.desk);
  o.deskUi.catalog(st.observing.faults);
  o.deskUi.faults([]);
}

// A refusal or the end of the trainee's session is final (no retry).
function onClose(c, st, s) {
  if (typeof s.rawReason !== 'string' || !s.rawReason.startsWith('observe:')) return false;
  st.observeEnded = s.rawReason.slice('observe:'.length).trim();
  c.connection.stop();
  return true;
}

function handlers(o) {
  const st = o.st;
  return {
    inputs(m) {
      st.observedVolts = m.volts;
      o.ui.inputs(m.volts);
    },
    events: (m) => o.ui.events(m),
    control(m) {
      st.desk = onControl(st.desk, m);
      o.deskUi.show(st.desk);
      if (st.observing) o.ui.show(st.observing, instructorDrives(st.desk));
    },
    control_answer(m) {
      st.desk = onAnswer(st.desk, m);
      o.deskUi.show(st.desk);
    },
    // listed with the events (the trainee's page shows it large)
    instructor_message: (m) => o.ui.note(`${m.from}: ${m.text}`, 'instructor_message'),
    faults: (m) => o.deskUi.faults(m.active),
    error: (m) => o.deskUi.error(m.message || m.code),
  };
}

export function createObserverPage(c) {
  document.body.dataset.observing = 'true';
  const o = { st: observerPageState(), ui: null, deskUi: null };
  o.ui = createObserverUi({ panel: document.getElementById('observer'), banner: document.getElementById('observer-banner') });
  o.deskUi = createDeskUi({ panel: document.getElementById('desk'), ...deskCallbacks(c, o) });
  const st = o.st;
  return {
    kind: 'observer',
    state: st,
    url: () => observeUrl(c.wsUrl, c.choice.observeId),
    hello: (msg) => hello(o, msg),
    // the machine sounds as the watched trainee drives it
    soundVolts: (driving) => (st.observing ? st.observedVolts : driving),
    drives: () => instructorDrives(st.desk),
    watchingWords: () => (instructorDrives(st.desk) ? null : 'Watching: your keys and joystick do nothing'),
    restartRefusal: () => 'restart: only the trainee restarts the task (you are watching)',
    linkProblem: () => (st.observeEnded
      ? ['not watching', 'error', `Not watching: ${st.observeEnded}. Choose a live session on the instructor page.`] : null),
    onClose: (s) => onClose(c, st, s),
    controlWords: observerControlWords,
    layout: (l) => o.ui.layout(l),
    on: handlers(o),
    api: {
      get observing() { return st.observing; },
      get observedVolts() { return st.observedVolts; },
      replay: null,
      get desk() { return st.desk; },
    },
  };
}
