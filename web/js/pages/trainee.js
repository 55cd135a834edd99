// A trainee's live page: the dam task, a lesson world (?scenario=NAME) or a take-over of a
// replayed moment (?takeover=T). It drives the machine, sends the trainee's name after
// every hello, offers the first lesson (pages/task-view.js), restarts the task, and asks
// for the "Replay my run" ticket from the end-of-task report. Its state is
// traineePageState(): what the address asked for that the server may refuse.

import { ZERO_VOLTS, withFrameRate, frameRateRefusal } from '../protocol.js';
import { scenarioUrl } from '../lesson.js';
import { withClassCode } from '../class-code.js';
import { takeoverUrl } from '../replay.js';
import { createReplayTicket } from '../replay-ui.js';
import { deskState } from '../desk.js';
import { sendVolts } from './controls.js';
import { showLink } from './link.js';

export function traineePageState(choice) {
  return {
    // ?takeover=T: good for the first connection only; a reconnect is a fresh session
    takeoverTicket: choice.takeoverTicket,
    takeoverRefused: null,  // why the server refused the take-over ticket
    rateRefused: null,      // the server's reason when it refused the frame rate (?rate=)
  };
}

// The live session this page asks for: its class code, world (?scenario), frame rate
// (?rate=20|30|60; hello.frame_period_s is what the server grants) and take-over ticket.
function liveUrl(c, st) {
  const code = c.link.classCode;
  const url = withFrameRate(scenarioUrl(code ? withClassCode(c.wsUrl, code) : c.wsUrl, c.task.scenario), c.frameRate);
  return st.takeoverTicket ? takeoverUrl(url, st.takeoverTicket) : url;
}

function hello(c, st) {
  st.takeoverTicket = null;   // a reconnect is a fresh session, not the take-over again
  // the controls at zero from the start (counted: the server counts them too)
  sendVolts(c, ZERO_VOLTS, performance.now(), false);
  // a fresh session knows no name: tell it
  const told = c.trainee.hello();
  if (told) c.connection.send(told);
  c.traineeUi.show(c.trainee.view());
}

// The closes that are final for this page: a refused take-over ticket (used, expired) and
// a frame rate the server does not offer (its reason names the choices).
function onClose(c, st, s) {
  if (st.takeoverTicket && typeof s.rawReason === 'string' && s.rawReason.startsWith('takeover:')) {
    st.takeoverRefused = s.rawReason.slice('takeover:'.length).trim();
    c.connection.stop();
    return true;
  }
  const badRate = frameRateRefusal(s.code, s.rawReason);
  if (badRate) {
    st.rateRefused = badRate;
    c.connection.stop();
    showLink(c);
    return true;
  }
  return false;
}

function linkProblem(c, st) {
  if (st.rateRefused) return ['frame rate refused', 'error', `The server refused the frame rate asked for (?rate=${c.frameRate}): ${st.rateRefused}`];
  if (st.takeoverRefused) return ['take-over refused', 'error', `Take-over refused: ${st.takeoverRefused}. Go back to the replay and take over again.`];
  return null;
}

export function createTraineePage(c) {
  const st = traineePageState(c.choice);
  // a take-over page is an instructor at a replayed moment: it asks no name (the run has
  // its trainee) and offers no lesson (the task is under way)
  if (c.choice.takeover) document.body.dataset.takeover = 'true';
  const replayTicket = createReplayTicket({ send: (m) => c.connection.send(JSON.stringify(m)) });
  return {
    kind: 'trainee',
    state: st,
    url: () => liveUrl(c, st),
    hello: () => hello(c, st),
    drives: () => true,
    // an instructor holds the controls: what this page sends is ignored
    ignoredWhy: () => (c.notices.state.mode === 'exclusive' ? c.notices.state.text : null),
    linkProblem: () => linkProblem(c, st),
    onClose: (s) => onClose(c, st, s),
    replayMyRun: (show) => replayTicket.request(show),
    on: {
      replay_ticket: (m) => replayTicket.message(m),
      error: (m) => replayTicket.error(m),
    },
    // the console's view of the other pages' parts: none here
    api: { observing: null, observedVolts: null, replay: null, desk: deskState() },
  };
}
