// What every page of index.html shares, put together: the context `c` that the shared
// modules and the page take as their first argument. c holds the parts made once (HUD,
// renderer, input, panels, connection) and the state objects that change:
//   c.draw      drawing.js    the world, its views, the view shown, what to draw next
//   c.controls  controls.js   the interlock, the controls counted on this connection
//   c.task      task-view.js  the scene, markers, warnings, score, report, lesson, restarts
//   c.link      link.js       the link's state, the session, a refusal, the class code
//   c.stats     link.js       counters of frames, drawings and controls
//   c.operator  operator.js   the keyboard layout's error, the rumble switch and counts
//   c.lastFrame               the last display frame
// and c.page, the page kind's own part (pages/trainee.js, observer.js, replay.js) with
// its own state object as c.page.state. The hooks a page may leave out, and what they
// mean when it does, are PAGE_DEFAULTS.

import { frameRateParam } from '../protocol.js';
import { makeMotion } from '../motion.js';
import { makeControlSender } from '../control-send.js';
import { makeLatencyProbe } from '../latency.js';
import { createHud } from '../hud.js';
import { makeTraineeSync } from '../trainee.js';
import { createTraineeUi } from '../trainee-ui.js';
import { createInstructorNotices } from '../instructor-notices.js';
import { createSound } from '../sound.js';
import { createSoundUi } from '../sound-ui.js';
import { drawingState, createRenderer, setView, startDrawing } from './drawing.js';
import { controlsState, pollControls, heartbeat, listenToDevices, listenToShortcuts } from './controls.js';
import { taskState, createTaskParts } from './task-view.js';
import { linkState, statsState, showStats, createLink, startPings, startConnection } from './link.js';
import { operatorState, createOperatorParts } from './operator.js';
import { messageHandlers } from './messages.js';
import { consoleApi } from './console-api.js';

export const PAGE_DEFAULTS = Object.freeze({
  hello: () => {},                     // the page's part of the hello, after the shared part
  on: {},                              // the page's part of server messages, by type
  skipsFrames: false,                  // a gap in display.seq is not a loss (a replay)
  feels: true,                         // events rumble the sticks
  playbackSpeed: () => null,           // a replay's speed (the motion follows it), null live
  soundVolts: (driving) => driving,    // the volts the machine's sound follows
  drives: () => false,                 // whether this page's controls are sent
  watchingWords: () => null,           // the HUD's words while the controls do nothing
  ignoredWhy: () => null,              // why the server ignores what this page sends
  restartRefusal: () => null,          // why this page may not restart the task
  linkProblem: () => null,             // [header, level, banner] of a final problem of its own
  onClose: () => false,                // takes a close of its own (true: handled, final)
  controlWords: (m) => m.text,         // the HUD note for a `control` message
  layout: () => {},                    // the keyboard layout came
  replayMyRun: null,                   // the report's "Replay my run", or none
});

function sharedContext(choice, params) {
  return {
    choice,
    params,
    wsUrl: params.get('ws') ?? `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`,
    // ?rate=20|30|60: frames per second asked of the server (hello.frame_period_s is what it grants)
    frameRate: frameRateParam(location.search),
    stage: document.getElementById('stage'),
    gfx: createRenderer(params, document.getElementById('view')),
    hud: createHud(document.getElementById('hud'), document.getElementById('banner'), document.getElementById('lmi')),
    // between frames each pose is carried on from the last two (motion.js)
    motion: makeMotion(),
    // controls: sent when they change and at a steady 20 Hz (control-send.js), their
    // latency to the frame and the drawing measured (latency.js)
    controlSender: makeControlSender(),
    probe: makeLatencyProbe(),
    draw: drawingState(params),
    controls: controlsState(),
    task: taskState(params),
    link: linkState(),
    stats: statsState(),
    operator: operatorState(),
    lastFrame: null,
    page: null,
  };
}

// Who drives, and the instructor's messages, on the trainee's screen (and the observer's);
// the machine's sound; who is at the controls (stored in this browser, sent after every
// hello and on a change; its line is hidden on the pages that ask no name).
function createPeopleParts(c) {
  c.notices = createInstructorNotices({ banner: document.getElementById('control-banner'),
    toast: document.getElementById('instructor-message') });
  c.sound = createSound({ doc: document, storage: window.localStorage });
  createSoundUi({ doc: document, sound: c.sound });
}

function createTraineeName(c) {
  c.trainee = makeTraineeSync({ storage: window.localStorage });
  c.traineeUi = createTraineeUi({ slot: document.getElementById('trainee'), prompt: document.getElementById('trainee-prompt'),
    session: window.sessionStorage,
    submit(raw) {
      const r = c.trainee.submit(raw);
      if (r.ok && r.message) c.connection.send(r.message);
      if (r.ok) c.hud.note(r.message ? `trainee: sent "${r.name}"` : `trainee: "${r.name}" saved, sent when connected`);
      c.traineeUi.show(c.trainee.view());
      return r;
    },
    clearError: () => c.trainee.clearError() });
  c.traineeUi.show(c.trainee.view());
}

// Start the page: createPage(c) makes the page kind's part (pages/trainee.js, ...).
export function startClient(choice, createPage) {
  const c = sharedContext(choice, new URLSearchParams(location.search));
  c.page = { ...PAGE_DEFAULTS, ...createPage(c) };
  createPeopleParts(c);
  createOperatorParts(c);
  createTaskParts(c);
  createTraineeName(c);
  createLink(c, messageHandlers(c));
  listenToDevices(c);
  listenToShortcuts(c);
  startDrawing(c, (now) => pollControls(c, now), showStats);
  startPings(c);
  window.clamsim = consoleApi(c);
  setView(c, c.draw.view);
  startConnection(c);
  heartbeat(c);
  return c;
}
