// clamsim browser client: connect, build the scene from the hello, draw display frames,
// send the operator's five volts when they change and at a steady 20 Hz. Straight-line
// setup; messages go through one dispatch table. The canvas is redrawn at the display's
// rate while the machine moves (each pose carried on between frames, motion.js), and only
// when something changed while it stands still.

import * as THREE from 'three';
import { parseServerMessage, parseClientConfig, controlMessage, pingMessage, restartMessage, ZERO_VOLTS,
  takeControlMessage, releaseControlMessage, instructorTextMessage, faultMessage, clearFaultMessage,
  frameRateParam, withFrameRate, frameRateRefusal } from './protocol.js';
import { makeMotion } from './motion.js';
import { makeControlSender } from './control-send.js';
import { makeLatencyProbe } from './latency.js';
import { Connection } from './connection.js';
import { buildWorld, configureRenderer } from './scene.js';
import { decideQuality, probeRenderer, qualitySettings } from './quality.js';
import { createViews, VIEWS } from './views.js';
import { createHud } from './hud.js';
import { createInput, isTypingTarget, setKeyboardLayout, keyboardLayout } from './input.js';
import { parseKeyboardLayout, keyHint, isActionKey } from './keyboard.js';
import { createHelp } from './help.js';
import { createMappingScreen } from './mapping-ui.js';
import { createTaskUi } from './task-ui.js';
import { makeWarningTracker, makeRestartGuard, hitRuleOf, parseAdvice } from './task.js';
import { loadMomentLevels } from './load-moment.js';
import { lessonView, lessonOffer, scenarioUrl, LESSON_CHOICE_KEY } from './lesson.js';
import { createLessonUi } from './lesson-ui.js';
import { updateMarkers } from './markers.js';
import { makeRumbleTracker, loadRumbleEnabled, saveRumbleEnabled, RUMBLES } from './haptics.js';
import { makeTraineeSync, traineeErrorKind } from './trainee.js';
import { createTraineeUi } from './trainee-ui.js';
import { withClassCode, classCodeRefusal, createClassCodeForm } from './class-code.js';
import { describeRefusal, showRefusal } from './refusal.js';
import { observeParam, observeUrl, observerControlWords } from './observer.js';
import { createObserverUi } from './observer-ui.js';
import { deskState, onControl, onAnswer, instructorDrives } from './desk.js';
import { createDeskUi } from './desk-ui.js';
import { createInstructorNotices } from './instructor-notices.js';
import { createSound } from './sound.js';
import { createSoundUi } from './sound-ui.js';
import { replayParam, replayUrl, takeoverParam, takeoverUrl, takenOverNotice } from './replay.js';
import { createReplayUi, createReplayTicket } from './replay-ui.js';

const CONTROL_PERIOD_MS = 50;   // 20 Hz, as the thesis's multimedia timer (3.3)
const PING_PERIOD_MS = 1000;

const params = new URLSearchParams(location.search);
const wsUrl = params.get('ws') ?? `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
let continuous = params.get('render') === 'continuous';
// the world this page asks for: ?scenario=NAME (the first lesson), else the server's own
let scenarioName = params.get('scenario') || null;
let classCode = null;
// ?observe=ID: an instructor watching session ID (docs/instructor.md "Watch"); nothing
// this page does reaches that machine
const observeId = observeParam(location.search);
if (observeId !== null) document.body.dataset.observing = 'true';
// ?replay=NAME: the debrief replay of a recorded run (docs/web-client.md "Debrief replay"); like
// watching, nothing this page does drives a machine. ?takeover=T: a live session that
// starts where a replay stood (the ticket is good for the first connection only).
const replayRequest = replayParam(location.search);
let takeoverTicket = takeoverParam(location.search);
// a take-over page is an instructor at a replayed moment: it asks no name (the run has its
// trainee) and offers no lesson (the task is under way)
const takeoverPage = takeoverTicket !== null;
if (takeoverPage) document.body.dataset.takeover = 'true';
// ?rate=20|30|60: frames per second asked of the server (hello.frame_period_s is what it grants)
const frameRate = frameRateParam(location.search);
let rateRefused = null;     // the server's reason when it refused that rate
const liveUrl = () => {
  const url = withFrameRate(scenarioUrl(classCode ? withClassCode(wsUrl, classCode) : wsUrl, scenarioName), frameRate);
  return takeoverTicket ? takeoverUrl(url, takeoverTicket) : url;
};
const connectUrl = () => (replayRequest ? replayUrl(wsUrl, replayRequest)
  : observeId !== null ? observeUrl(wsUrl, observeId) : liveUrl());
const watchOnly = observeId !== null || replayRequest !== null;

const stage = document.getElementById('stage');
const canvas = document.getElementById('view');
// The drawing quality (quality.js): low where WebGL runs in software (SwiftShader, llvmpipe),
// which spends most of its time per pixel and on multisampling; high on a GPU; ?quality=
// overrides it.
const rendererName = probeRenderer();
const qualityChoice = decideQuality({ rendererName, param: params.get('quality') });
if (qualityChoice.warning) console.warn(`clamsim: ${qualityChoice.warning}`);
const look = qualitySettings(qualityChoice.quality);
const software = qualityChoice.software;
// ?smooth=1 draws between frames (each pose carried on, motion.js), ?smooth=0 draws each
// frame as it comes. By default only where WebGL has a GPU: in software every drawing takes
// CPU the page needs for frames and controls, and on the 2-core test machine drawing between
// frames tripled the control-to-screen time (docs/web-client.md, "Smooth motion")
const smooth = params.has('smooth') ? params.get('smooth') !== '0' : !software;
const renderer = new THREE.WebGLRenderer({ canvas, antialias: look.antialias && params.get('aa') !== '0',
  preserveDrawingBuffer: params.has('screenshots') });
renderer.setPixelRatio(Math.min(window.devicePixelRatio, look.maxPixelRatio));
configureRenderer(renderer, look);

const hud = createHud(document.getElementById('hud'), document.getElementById('banner'),
  document.getElementById('lmi'));
const observerUi = observeId === null ? null
  : createObserverUi({ panel: document.getElementById('observer'), banner: document.getElementById('observer-banner') });
// the instructor's desk (observer mode): take or share the controls, message the trainee
let desk = deskState();
const deskUi = observeId === null ? null : createDeskUi({ panel: document.getElementById('desk'),
  onRequest: (request, wait) => {
    if (!connection.isOpen) return deskUi.error('not connected');
    connection.send(request === 'release_control' ? releaseControlMessage()
      : takeControlMessage(request === 'share_control', wait));
    // handing back: stop sending at once, not when the server's `control` arrives
    if (request === 'release_control') desk = { ...desk, you: false };
    interlock = { on: true, why: 'controls taken' };   // the instructor's stick starts at neutral
  },
  onMessage: (text) => {
    if (connection.isOpen) connection.send(instructorTextMessage(text));
    else deskUi.error('not connected: message not sent');
  },
  onFault: (name, params) => {
    if (connection.isOpen) connection.send(faultMessage(name, params));
    else deskUi.error('not connected: fault not sent');
  },
  onClearFault: (name, params) => {
    if (connection.isOpen) connection.send(clearFaultMessage(name, params));
    else deskUi.error('not connected');
  } });
const replay = replayRequest === null ? null : createReplayUi({ request: replayRequest,
  send: (m) => connection.send(JSON.stringify(m)), go: (url) => location.assign(url), note: (t) => hud.note(t) });
// the trainee's "Replay my run" on the end-of-task report (a live page's only)
const replayTicket = watchOnly ? null : createReplayTicket({ send: (m) => connection.send(JSON.stringify(m)) });
// who drives, and the instructor's messages, on the trainee's screen (and the observer's)
const notices = createInstructorNotices({ banner: document.getElementById('control-banner'),
  toast: document.getElementById('instructor-message') });
let observing = null;       // hello.observing once connected as an observer
let observedVolts = null;   // the trainee's inputs, as the last `inputs` message gave them
let drivingVolts = ZERO_VOLTS;   // what this page sends now: the sound's demand
const sound = createSound({ doc: document, storage: window.localStorage });
createSoundUi({ doc: document, sound });
let observeEnded = null;    // why the server stopped (or refused) this observer
let takeoverRefused = null; // why the server refused this page's take-over ticket
let refusal = null;        // any other refusal of the connection (close 1008): final
let serverLists = { scenarios: [], models: [] };  // client-config's names, offered on a refusal
const input = createInput({ target: document, storage: window.localStorage,
  getGamepads: () => navigator.getGamepads?.() ?? [] });

let world = null;
let views = null;
let worldKey = '';
let dirty = true;
let view = VIEWS.includes(params.get('view')) ? params.get('view') : 'full';
const stats = { frames: 0, dropped: 0, lastSeq: -1, session: null, arrivals: [], renders: [],
  latencyMs: NaN, pingId: 0, renderMs: 0, connections: 0, draws: 0, drawsBetween: 0, framesSeen: 0, controlsSent: 0 };
// between frames each pose is carried on from the last two (motion.js)
const motion = makeMotion();
let periodMs = 50;          // hello.frame_period_s, the period granted
let drawnAhead = -1;        // how far past the newest frame the last drawing was (periods)
let frameSinceDraw = false; // a frame arrived since the last drawing
// controls: sent when they change (polled every animation frame) and at a steady 20 Hz;
// numbered per connection, so a frame's control_seq says which it reflects (latency.js)
const controlSender = makeControlSender();
const probe = makeLatencyProbe();
let controlCount = 0;       // controls sent on this connection since its hello
let helloSeen = false;      // this connection's hello has come: its count starts at 0
let partsNote = null;       // why frames do not place the machine (hello.parts missing...)
let lastFrame = null;
let interlock = { on: true, why: 'connecting' };  // zero until the controls are at neutral
let lostDevice = null;
let linkState = { status: 'connecting' };
let sessionId = null;  // hello.session, as /api/sessions names it

// the keys: the server's layout (GET /api/client-config), shown in the header and the help
let keyboardError = 'not loaded yet';
function useKeyboardLayout(raw) {
  try {
    if (raw === null) throw new Error('the server has none configured (--keyboard-file)');
    setKeyboardLayout(parseKeyboardLayout(raw));
    keyboardError = null;
    document.getElementById('keys-hint').textContent = keyHint(keyboardLayout());
    observerUi?.layout(keyboardLayout());
  } catch (e) {
    keyboardUnavailable(e.message);
  }
}
function keyboardUnavailable(why) {
  keyboardError = why;
  document.getElementById('keys-hint').textContent = `Keys: not available (${why})`;
  hud.note(`keyboard: ${why}`);
}
const help = createHelp({ dialog: document.getElementById('help'), button: document.getElementById('open-help'),
  input, layout: keyboardLayout, layoutError: () => keyboardError,
  shortcuts: () => document.querySelectorAll('#view-buttons [data-view], #open-mapping'),
  quality: () => `Drawing quality: ${look.quality} (${qualityChoice.reason}). Add ?quality=low or ?quality=high to the page's address to choose.` });
hud.note(`drawing quality: ${look.quality} (${qualityChoice.reason})`);

// haptic feedback: the sticks driving the crane rumble when an event counter rises
const rumbleTracker = makeRumbleTracker();
let rumbleOn = loadRumbleEnabled(window.localStorage);
const rumbleStats = { played: 0, muted: 0, last: null };
function feel(effect) {
  if (!rumbleOn || document.hidden) {
    rumbleStats.muted += 1;
    return;
  }
  const devices = input.rumble(effect);
  rumbleStats.played += 1;
  rumbleStats.last = { kind: effect.kind, counter: effect.counter, devices };
}

const mappingScreen = createMappingScreen({ dialog: document.getElementById('mapping'), input,
  storage: window.localStorage,
  rumble: {
    enabled: () => rumbleOn,
    setEnabled(on) {
      rumbleOn = Boolean(on);
      saveRumbleEnabled(window.localStorage, rumbleOn);
    },
    test: () => input.rumble({ kind: 'hit', counter: null, startDelay: 0, ...RUMBLES.hit }),
  } });

// the working world and the training task
let sceneInfo = null;         // hello.scene (loads, task)
let lmiLevels = null;         // hello.machine.load_moment: the indicator's levels, the server's
let markers = [];             // contact markers (markers.js)
let warnings = [];
let lastScore = null;
let lastLesson = null;         // display.lesson of the last frame (first lesson only)
let lastReport = null;
let drainNotice = null;       // the server's latest drain message while it shuts down
let restartId = 0;
const restartStats = { sent: 0, acknowledged: 0, reports: 0 };
let confirmRestartUntil = 0;  // "press R again" shown until then
const warningTracker = makeWarningTracker();
// what each penalty event means and how to avoid it (web/data/advice.json, the one place
// those words live); until it comes, or if it cannot, the badges alone
let adviceData = null;
fetch(new URL('../data/advice.json', import.meta.url), { cache: 'no-store' })
  .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))))
  .then((raw) => { adviceData = parseAdvice(raw); })
  .catch((e) => hud.note(`advice.json: ${e.message ?? e}: penalties show without their explanation`));
const restartGuard = makeRestartGuard();
const taskUi = createTaskUi({ warnings: document.getElementById('warnings'), score: document.getElementById('score'),
  report: document.getElementById('report'), onRestart: (source, practice) => requestRestart(source, practice),
  onReplay: watchOnly ? null : (show) => replayTicket.request(show) });

// the first lesson: offered in the dam task, taken in its own world (docs/training-task.md)
let offeredLesson = null;
function switchWorld(name) {
  scenarioName = name;
  connection.stop();
  connection.url = connectUrl();
  connection.start();
}
function rememberLesson(choice) {
  try { window.localStorage.setItem(LESSON_CHOICE_KEY, choice); } catch { /* storage blocked */ }
}
const lessonUi = createLessonUi({ panel: document.getElementById('lesson'), offer: document.getElementById('lesson-offer'),
  onStart() {
    hud.note(`lesson: starting "${offeredLesson}"`);
    switchWorld(offeredLesson);
  },
  onLeave(why) {
    rememberLesson(why);
    lessonUi.offer(null);
    if (sceneInfo?.lesson) switchWorld(null);
  },
  // the dam task again, as a practice attempt: the server scores it without a time limit
  onPractice() {
    rememberLesson('skipped');
    lessonUi.offer(null);
    requestRestart('lesson offer', true);
  } });

// who is at the controls: stored in this browser, sent after every hello and on a change
const trainee = makeTraineeSync({ storage: window.localStorage });
const traineeUi = createTraineeUi({ slot: document.getElementById('trainee'), prompt: document.getElementById('trainee-prompt'),
  session: window.sessionStorage,
  submit(raw) {
    const r = trainee.submit(raw);
    if (r.ok && r.message) connection.send(r.message);
    if (r.ok) hud.note(r.message ? `trainee: sent "${r.name}"` : `trainee: "${r.name}" saved, sent when connected`);
    traineeUi.show(trainee.view());
    return r;
  },
  clearError: () => trainee.clearError() });
traineeUi.show(trainee.view());

// practice: a practice attempt (no time limit); by default R and the score panel's button
// repeat the kind of attempt under way
function requestRestart(source, practice = lastScore?.practice === true) {
  if (replay) {
    hud.note('restart: this is a replay; "Take over from here" starts a live session');
    return false;
  }
  if (observeId !== null) {
    hud.note('restart: only the trainee restarts the task (you are watching)');
    return false;
  }
  if (!connection.isOpen) {
    hud.note('restart: not connected');
    return false;
  }
  connection.send(restartMessage(++restartId, practice));
  restartStats.sent += 1;
  restartGuard.cancel();
  confirmRestartUntil = 0;
  hud.note(`restart requested (${source}${practice ? ', practice' : ''})`);
  return true;
}

// key R and the joystick's restart button: a second press confirms while a task runs
function restartPressed(source) {
  const now = performance.now();
  const running = Boolean(lastScore?.enabled && lastScore.running && !lastScore.finished) && !taskUi.reportOpen;
  if (restartGuard.press(now, running) === 'restart') requestRestart(source);
  else {
    confirmRestartUntil = now + 3000;
    showWarnings(now);
  }
}

function showWarnings(now) {
  const list = now < confirmRestartUntil
    ? [{ id: 'confirm-restart', text: `Press ${keyboardLayout()?.actions.restart.label ?? 'the restart key'} (or the restart button) again to restart the task`, level: 'warn' }, ...warnings]
    : warnings;
  taskUi.warnings(list);
}

function markDirty() { dirty = true; }

function setView(name) {
  if (!VIEWS.includes(name)) return;
  view = name;
  views?.set(name);
  // buttons only: the body carries data-view too, and aria-pressed is no attribute of it
  for (const b of document.querySelectorAll('button[data-view]')) b.setAttribute('aria-pressed', String(b.dataset.view === name));
  document.body.dataset.view = name;
  markDirty();
}

function resize() {
  const w = stage.clientWidth, h = stage.clientHeight;
  renderer.setSize(w, h, false);
  views?.resize(w, h);
  markDirty();
}

const handlers = {
  hello(msg) {
    // a reconnect is a fresh session; rebuild only if the machine or the scene changed
    const key = JSON.stringify([msg.machine, msg.scene]);
    if (key !== worldKey) {
      views?.dispose();
      world?.dispose();
      world = buildWorld(msg, { look });
      views = createViews({ renderer, world, labels: document.getElementById('labels'), onChange: markDirty,
        overlays: () => [document.getElementById('score'), document.getElementById('lmi')] });
      worldKey = key;
      resize();
      setView(view);
    }
    // a fresh session: a fresh attempt at the task
    sceneInfo = msg.scene;
    lastLesson = null;
    if (sceneInfo.lesson) lessonUi.show(lessonView(sceneInfo.lesson, null));
    else lessonUi.hide();
    offeredLesson = sceneInfo.lesson || watchOnly || takeoverPage ? null : lessonOffer(sceneInfo, window.localStorage);
    lessonUi.offer(offeredLesson);
    lmiLevels = loadMomentLevels(msg.machine);
    hud.loadMomentLevels(lmiLevels);
    sound.hello(msg.machine);
    markers = [];
    warningTracker.reset();
    rumbleTracker.reset();
    restartGuard.cancel();
    taskUi.hideReport();
    lastReport = null;
    if (msg.warnings.length) hud.note(`hello: ignored ${msg.warnings.join('; ')}`);
    stats.session = `${msg.session} (${msg.model || 'model'}, ${msg.server || 'server'})`;
    sessionId = msg.session;
    hud.note(`hello: protocol ${msg.protocol}, frame ${+(msg.frame_period_s * 1000).toFixed(1)} ms`);
    // a fresh session: its frames start over, and so does the count of controls
    periodMs = msg.frame_period_s * 1000;
    motion.reset();
    motion.configure({ periodMs, stepsPerPeriod: 1 });
    partsNote = world.missingParts.length ? `hello.parts does not name ${world.missingParts.join(', ')}: the machine is not drawn` : null;
    if (partsNote) hud.note(partsNote);
    controlCount = 0;
    helloSeen = true;
    controlSender.reset(msg.limits?.max_messages_per_s ?? null);
    probe.reset();
    notices.reset();
    if (msg.taken_over) notices.message(takenOverNotice(msg.taken_over, msg.frame_period_s));
    takeoverTicket = null;   // a reconnect is a fresh session, not the take-over again
    if (replay) return replay.hello(msg, msg.replay);   // a recorded run: no name, no controls
    if (msg.observing) {
      observing = msg.observing;
      observerUi?.show(observing);
      observerUi?.clearEvents();
      desk = deskState();
      deskUi?.show(desk);
      deskUi?.catalog(observing.faults);
      deskUi?.faults([]);
      return;   // the machine is the trainee's: no name, no controls from here
    }
    // the controls at zero from the start (counted: the server counts them too)
    sendVolts(ZERO_VOLTS, performance.now(), false);
    // a fresh session knows no name: tell it
    const told = trainee.hello();
    if (told) connection.send(told);
    traineeUi.show(trainee.view());
  },
  display(f) {
    if (!world) return;
    // a replay skips frames when it seeks or plays fast: not a loss
    if (!replay && stats.lastSeq >= 0 && f.seq > stats.lastSeq + 1) stats.dropped += f.seq - stats.lastSeq - 1;
    stats.lastSeq = f.seq;
    stats.frames += 1;
    stats.arrivals.push(performance.now());
    stats.framesSeen += 1;
    frameSinceDraw = true;
    if (f.warnings.length) hud.note(`frame ${f.seq}: ignored ${f.warnings.join('; ')}`);
    const now = performance.now();
    probe.frame(f.control_seq, now);
    if (world.update(f)) {
      // a replay at 4x shows every 4th frame once a period; at 0.5x one frame in two periods
      if (replay) {
        const speed = replay.state?.speed ?? 1;
        motion.configure({ periodMs: periodMs / Math.min(1, speed), stepsPerPeriod: Math.max(1, speed) });
      }
      motion.push(f.seq, now, [...f.parts, ...f.loads.map((l) => [...l.position_m, ...l.orientation])],
        [f.display[5], f.display[6]]);
    } else if (!partsNote) {
      partsNote = `frame ${f.seq}: no pose for every part (display.parts): the machine is not moved`;
      hud.note(partsNote);
    }
    markers = updateMarkers(markers, f.contacts, now);
    world.updateMarkers(markers, now);
    warnings = warningTracker.update(f, { now, hitRule: hitRuleOf(sceneInfo?.task),
      loadMassKg: (i) => sceneInfo?.loads?.find((l) => l.index === i)?.mass_kg ?? 0,
      // the tip-over banner names the key only where this page can restart
      restartKey: watchOnly ? null : keyboardLayout()?.actions.restart.label ?? 'R', adviceData });
    showWarnings(now);
    const effect = rumbleTracker.update(f.events, now);
    if (effect && !replay) feel(effect);
    replay?.frame(f);
    if (f.score) {
      taskUi.score(f.score, sceneInfo?.task);
      lastScore = f.score;
    }
    if (f.lesson && sceneInfo?.lesson) {
      if (f.lesson.finished && !lastLesson?.finished) rememberLesson('done');
      lessonUi.show(lessonView(sceneInfo.lesson, f.lesson));
      lastLesson = f.lesson;
    }
    hud.frame(f, world.state.slack);
    // the machine sounds as it is driven: by this page's controls, or the watched trainee's
    sound.frame(f, observing ? observedVolts : drivingVolts);
    lastFrame = f;
    markDirty();
  },
  report(m) {
    lastReport = m;
    restartStats.reports += 1;
    taskUi.report(m.report, lastScore, lmiLevels);
  },
  restarting() {
    restartStats.acknowledged += 1;
    taskUi.hideReport();
    lastReport = null;
    markers = [];
    warningTracker.reset();
    rumbleTracker.reset();
    motion.reset();   // the world is put back: its next frame is drawn as it is
    hud.note('task restarted');
  },
  pong(m) {
    stats.latencyMs = performance.now() - m.t;
  },
  trainee(m) {
    trainee.acknowledged(m.name);
    traineeUi.show(trainee.view());
    hud.note(`trainee: the server records "${m.name}"`);
  },
  inputs(m) {
    observedVolts = m.volts;
    observerUi?.inputs(m.volts);
  },
  events(m) {
    observerUi?.events(m);
  },
  control(m) {
    notices.control(m);
    hud.note(`control: ${observeId === null ? m.text : observerControlWords(m)}`);
    if (observeId === null) return;
    desk = onControl(desk, m);
    deskUi?.show(desk);
    if (observing) observerUi?.show(observing, instructorDrives(desk));
  },
  control_answer(m) {
    desk = onAnswer(desk, m);
    deskUi?.show(desk);
    hud.note(`${m.request}: ${m.result}: ${m.message}`);
  },
  instructor_message(m) {
    // the trainee sees it large; an observer's page lists it with the events
    if (observeId === null) notices.message(m);
    else observerUi?.note(`${m.from}: ${m.text}`, 'instructor_message');
    hud.note(`message from ${m.from}: ${m.text}`);
  },
  faults(m) {
    deskUi?.faults(m.active);
  },
  drain(m) {
    // the server counts down once a second; the banner shows its own words
    drainNotice = m;
    showLink();
  },
  // the debrief replay's (docs/websocket-protocol.md "Replays"); a live page's ticket
  replay_progress(m) { replay?.message(m); },
  replay_timeline(m) { replay?.message(m); },
  replay_state(m) { replay?.message(m); },
  take_over(m) { replay?.message(m); },
  replay_ticket(m) { replayTicket?.message(m); },
  error(m) {
    hud.note(`server: ${m.code}${m.message ? `: ${m.message}` : ''}`);
    replay?.error(m);
    replayTicket?.error(m);
    if (observeId !== null) deskUi?.error(m.message || m.code);
    if (traineeErrorKind(m)) {
      const name = trainee.refused(m);
      traineeUi.show(trainee.view());
      if (traineeErrorKind(m) === 'refused') traineeUi.refused(name, m.message || m.code);
    }
  },
};

function onMessage(text) {
  const r = parseServerMessage(text);
  if (!r.ok) {
    hud.note(`ignored a message: ${r.error}`);
    return;
  }
  handlers[r.msg.type](r.msg);
}

function showStats(now = performance.now()) {
  hud.link({ frames: stats.frames, dropped: stats.dropped, rateHz: rate(stats.arrivals, now),
    fps: rate(stats.renders, now), latencyMs: stats.latencyMs, session: stats.session,
    inputMs: probe.summary().toDraw.p50 });
}

function onOpen() {
  drainNotice = null;
  Object.assign(stats, { frames: 0, dropped: 0, lastSeq: -1, session: null, arrivals: [], latencyMs: NaN });
  stats.connections += 1;
  showStats();
  interlock = { on: true, why: 'new session' };
  // no controls until this connection's hello: the server counts them from there
  helloSeen = false;
}

function describeLink() {
  const s = linkState;
  if (observeEnded) return ['not watching', 'error', `Not watching: ${observeEnded}. Choose a live session on the instructor page.`];
  if (rateRefused) return ['frame rate refused', 'error', `The server refused the frame rate asked for (?rate=${frameRate}): ${rateRefused}`];
  if (takeoverRefused) return ['take-over refused', 'error', `Take-over refused: ${takeoverRefused}. Go back to the replay and take over again.`];
  if (refusal) return ['refused by the server', 'error', ''];  // #refusal says why and what to do
  if (drainNotice && s.status === 'connected')
    return [`server stopping in ${drainNotice.secondsLeft} s`, 'warn', drainNotice.message];
  const secs = s.retryAt ? Math.max(0, Math.ceil((s.retryAt - Date.now()) / 1000)) : 0;
  const why = s.reason ? ` (${s.reason})` : '';
  switch (s.status) {
    case 'connected': return [`connected`, 'ok', ''];
    case 'connecting': return [`connecting…`, 'warn', ''];
    case 'reconnecting': return [`connection lost${why}, reconnecting in ${secs} s`, 'warn',
      `Connection to the server lost${why}. Reconnecting in ${secs} s…`];
    case 'full': return [`no session free, retry in ${secs} s`, 'error',
      `The server takes no new session now${why}. Retrying in ${secs} s…`];
    case 'unreachable': return [`unreachable, retry in ${secs} s`, 'error',
      `Server unreachable at ${s.url}${why}. Retrying in ${secs} s (attempt ${s.attempt}). Controls are not reaching the machine.`];
    default: return [s.status, 'warn', ''];
  }
}

function showLink() {
  const [text, level, banner] = describeLink();
  hud.connection(text, level);
  hud.banner(banner);
}

// the class code, when the server asks for one: kept for this tab, asked again if refused
const CLASS_CODE_KEY = 'clamsim.classCode';
const classCodeForm = createClassCodeForm({ form: document.getElementById('class-code'),
  onCode(code) {
    window.sessionStorage.setItem(CLASS_CODE_KEY, code);
    classCode = code;
    connection.url = connectUrl();
    connection.start();
  } });

const connection = new Connection({
  url: connectUrl(), onMessage, onOpen,
  onState(s) {
    // watching: a refusal or the end of the trainee's session is final (no retry)
    if (observeId !== null && typeof s.rawReason === 'string' && s.rawReason.startsWith('observe:')) {
      observeEnded = s.rawReason.slice('observe:'.length).trim();
      connection.stop();
      return;
    }
    // a replay refused (no such recording, no login, a bad ticket) is final too
    if (replay && s.code === 1008) {
      replay.refused(s.rawReason || s.reason || 'refused by the server');
      connection.stop();
      return;
    }
    // a take-over ticket refused (used, expired): say so rather than retry it
    if (takeoverTicket && typeof s.rawReason === 'string' && s.rawReason.startsWith('takeover:')) {
      takeoverRefused = s.rawReason.slice('takeover:'.length).trim();
      connection.stop();
      return;
    }
    // a frame rate the server does not offer: say so (its reason names the choices)
    const badRate = frameRateRefusal(s.code, s.rawReason);
    if (badRate) {
      rateRefused = badRate;
      connection.stop();
      showLink();
      return;
    }
    const refused = classCodeRefusal(s.code, s.rawReason);
    if (refused) {
      // no retry with a refused code: ask again (stop() reports the link as closed)
      window.sessionStorage.removeItem(CLASS_CODE_KEY);
      classCodeForm.ask(`Refused by the server: ${refused}`);
      connection.stop();
      return;
    }
    // any other policy close before the hello (an unknown scenario or model, an origin not
    // allowed) is a refusal: the same URL would be refused again, so no retry; say why and
    // what to do instead. One after the hello (flooding) ended a session: a new one may start
    if (s.code === 1008 && !helloSeen) {
      refusal = describeRefusal(s.rawReason, serverLists, window.location.href);
      showRefusal(document.getElementById('refusal'), refusal);
      connection.stop();
      showLink();
      return;
    }
    linkState = s;
    if (s.status !== 'connected') {
      stats.session = null;
      sessionId = null;
      trainee.disconnected();
      traineeUi.show(trainee.view());
    }
    showLink();
  },
});

// controls: sent at once when they change (pollControls, every animation frame) and at a
// steady 20 Hz, drift-corrected (heartbeat); zero while hidden, after a (re)connect until
// the controls are back at neutral, and when the joystick goes away
let nextSend = performance.now();
// a trainee's page always drives; an observer's only while its instructor holds control
function sendsControls() { return !replay && (observeId === null || instructorDrives(desk)); }

// one `control` out, counted (the server counts them too: display.control_seq); change:
// sent because the volts changed, so the latency probe follows it
function sendVolts(volts, now, change) {
  if (!connection.isOpen || !helloSeen || !sendsControls()) return false;
  if (!connection.send(controlMessage(volts))) return false;
  controlCount += 1;
  stats.controlsSent += 1;
  controlSender.sent(volts, now, change);
  if (change) probe.sent(controlCount, now);
  return true;
}

// What the operator's controls say now, and what the page makes of it.
function readControls() {
  const p = input.poll();
  if (p.nextView) setView(views ? views.next() : view);
  if (p.restart && !mappingScreen.isOpen) restartPressed('joystick');
  let volts = p.volts;
  let source, level = 'ok';
  const neutral = volts.every((v) => v === 0);
  if (document.hidden) {
    volts = ZERO_VOLTS;
    source = 'Tab hidden: sending zero';
    level = 'warn';
    interlock = { on: true, why: 'tab was hidden' };
  } else if (mappingScreen.isOpen) {
    volts = ZERO_VOLTS;  // moving a stick to learn it must not move the crane
    source = 'Joystick mapping open: sending zero';
    level = 'warn';
    interlock = { on: true, why: 'mapping screen was open' };
  } else if (interlock.on && !neutral) {
    volts = ZERO_VOLTS;
    source = `Sending zero (${interlock.why}): return the controls to neutral`;
    level = 'warn';
  } else {
    if (neutral) interlock.on = false;
    const from = [];
    if (p.devices.length) from.push(`joystick: ${p.devices.join(', ')}${p.bound.length ? '' : ' (nothing mapped)'}`);
    if (p.keyboard) from.push('keyboard');
    source = from.length ? from.join(' + ') : 'No joystick: keyboard only';
    if (lostDevice && !p.devices.length) {
      source = `Joystick ${lostDevice} disconnected: its signals are zero`;
      level = 'error';
    }
  }
  const watching = replay !== null || (observeId !== null && !instructorDrives(desk));
  if (watching) {
    volts = ZERO_VOLTS;   // watching: nothing is sent
    source = replay ? 'Replay: your keys and joystick do nothing' : 'Watching: your keys and joystick do nothing';
    level = 'warn';
  } else if (!connection.isOpen) {
    source = `Not connected: controls not sent. ${source}`;
    level = 'error';
  } else if (observeId === null && notices.state.mode === 'exclusive') {
    // an instructor holds the controls: what this page sends is ignored, and it says so
    source = `Ignored: ${notices.state.text}`;
    level = 'warn';
  }
  return { volts, source, level, watching };
}

function showControls(c) {
  drivingVolts = c.watching ? ZERO_VOLTS : c.volts;
  hud.controls(c.volts, c.source, c.level);
}

// every animation frame: a change goes out at once (at most one per ~16 ms, within the
// server's message allowance)
function pollControls(now) {
  const c = readControls();
  if (!c.watching && controlSender.shouldSend(c.volts, now) && sendVolts(c.volts, now, true)) showControls(c);
}

// the steady 20 Hz, whether or not anything changed
function heartbeat() {
  const c = readControls();
  const now = performance.now();
  if (!c.watching) sendVolts(c.volts, now, false);
  showControls(c);
  nextSend += CONTROL_PERIOD_MS;
  if (nextSend < now - CONTROL_PERIOD_MS) nextSend = now + CONTROL_PERIOD_MS;  // after a stall
  setTimeout(heartbeat, Math.max(0, nextSend - now));
}

setInterval(() => {
  if (connection.isOpen) connection.send(pingMessage(++stats.pingId, performance.now()));
  if (linkState.status !== 'connected') showLink();  // count the retry down
}, PING_PERIOD_MS);

window.addEventListener('gamepaddisconnected', (ev) => {
  lostDevice = ev.gamepad.id;
  interlock = { on: true, why: 'joystick disconnected' };
  sendVolts(ZERO_VOLTS, performance.now(), false);
  if (mappingScreen.isOpen) mappingScreen.open();
});
window.addEventListener('gamepadconnected', () => {
  lostDevice = null;
  interlock = { on: true, why: 'joystick connected' };
  if (mappingScreen.isOpen) mappingScreen.open();
});
document.addEventListener('visibilitychange', () => {
  if (document.hidden) sendVolts(ZERO_VOLTS, performance.now(), false);
});
window.addEventListener('blur', () => input.clearKeys());

document.getElementById('view-buttons').addEventListener('click', (ev) => {
  const b = ev.target.closest('[data-view]');
  if (b) setView(b.dataset.view);
});
document.getElementById('open-mapping').addEventListener('click', () => mappingScreen.open());
document.addEventListener('keydown', (ev) => {
  // typing a name (or in any field) is not a shortcut
  if (mappingScreen.isOpen || ev.ctrlKey || ev.metaKey || ev.altKey || isTypingTarget(ev.target)) return;
  const m = /^(?:Digit|Numpad)([1-5])$/.exec(ev.code);
  if (m) setView(VIEWS[Number(m[1]) - 1]);
  else if (ev.code === 'KeyM') mappingScreen.open();
  else if (isActionKey(keyboardLayout(), 'restart', ev) && !ev.repeat) restartPressed(`key ${keyboardLayout().actions.restart.label}`);
  else if (isActionKey(keyboardLayout(), 'help', ev) && !ev.repeat) help.toggle();
  else if (ev.code === 'Escape' && help.isOpen) help.close();
  else if (ev.code === 'Escape' && taskUi.reportOpen) taskUi.hideReport();
});

new ResizeObserver(resize).observe(stage);

function rate(list, now, windowMs = 2000) {
  while (list.length && list[0] < now - windowMs) list.shift();
  return list.length / (windowMs / 1000);
}

let lastHud = 0;
// Once per display frame: the controls polled (a change goes out at once), and the view
// drawn when something changed, or while the machine moves (its poses carried on from the
// last two frames, at most one frame period past the newest).
renderer.setAnimationLoop((rafNow) => {
  if (mappingScreen.isOpen) mappingScreen.tick();
  const now = performance.now();
  pollControls(now);
  const sample = world ? motion.sample(smooth ? now : -Infinity) : null;
  const moving = smooth && Boolean(sample?.moving) && sample.ahead !== drawnAhead;
  if (world && (dirty || continuous || moving)) {
    if (!frameSinceDraw) stats.drawsBetween += 1;   // no new frame since the last drawing
    frameSinceDraw = false;
    dirty = false;
    const t0 = performance.now();
    if (sample) {
      world.place(sample.poses, sample.scalars);
      drawnAhead = sample.ahead;
    }
    views.render(now);
    if (views.fading) dirty = true;
    const t1 = performance.now();
    stats.renderMs = 0.9 * stats.renderMs + 0.1 * (t1 - t0);
    stats.renders.push(rafNow);
    stats.draws += 1;
    probe.drawn(t1);
  }
  if (now - lastHud > 250) {
    lastHud = now;
    showStats(rafNow);
  }
});

// for the console and the end-to-end tests
window.clamsim = {
  get view() { return view; },
  setView,
  get stats() { return { ...stats, arrivals: undefined, renders: undefined }; },
  get frame() { return lastFrame; },
  get link() { return linkState; },
  get report() { return lastReport; },
  get session() { return sessionId; },
  // observer mode: hello.observing (null on a trainee's page) and the trainee's last inputs
  get observing() { return observing; },
  get observedVolts() { return observedVolts; },
  // replay mode: what replay.js knows (hello.replay, progress, events, playing, speed, k)
  get replay() { return replay?.state ?? null; },
  // the instructor's desk (who drives, this page's place in it) and what this page sends
  get desk() { return desk; },
  get drivingVolts() { return drivingVolts; },
  // the trainee's name: stored, acknowledged by this session, state, last refusal, sent
  get trainee() { return trainee.view(); },
  // practice: true for a practice attempt (no time limit)
  restart: (practice) => requestRestart('console', practice),
  // the help overlay, for the end-to-end tests
  help,
  get keyboard() { return keyboardLayout(); },
  // the world this page is in: a scenario name, or null for the server's own
  get scenario() { return scenarioName; },
  // its task as the scene names it (hello.scene.task: title, load ids, times), or null
  get task() { return sceneInfo?.task ?? null; },
  // what is drawn, for the end-to-end tests: load meshes, contact markers, warnings, score
  debug() {
    return {
      ...(world?.counts() ?? { loadMeshes: 0, loadsVisible: 0, kinds: [], heldLoad: null, markers: 0 }),
      sceneLoads: sceneInfo?.loads?.length ?? 0,
      warnings: warnings.map((w) => w.id),
      // the world's event counters of the last frame (display.events)
      events: lastFrame?.events ?? null,
      score: lastScore,
      scoreVisible: !document.getElementById('score').hidden,
      reportOpen: taskUi.reportOpen,
      restarts: { ...restartStats },
      rumble: { enabled: rumbleOn, ...rumbleStats },
      trainee: trainee.view(),
      hitRule: hitRuleOf(sceneInfo?.task),
      // the gauge's levels (the server's) and the crane as drawn: its tilt in degrees
      loadMoment: { levels: lmiLevels, pct: lastFrame?.load_moment_pct ?? null, lmi: lastFrame?.lmi ?? null },
      tiltDeg: world?.state.tiltDeg ?? 0,
      lesson: { shown: lessonUi.visible, offered: offeredLesson, progress: lastLesson, scenario: scenarioName },
    };
  },
  // per drawn viewport, the structures drawn see-through because they hide the clam:
  // {full: {'trash rack': 0.25, ...}} (opacity factor; 1 would be opaque)
  occlusion: () => views?.occlusion() ?? {},
  // where a base-frame point (x, y, z [m]) is drawn in a view: {x, y} CSS px on the canvas
  project: (name, p) => views?.project(name, p) ?? null,
  // the work's points in the base frame [m] (the scene's): the rack's centre and the ends of
  // its long side, the truck's bed, the crane's swing axis
  workPoints() {
    const sc = sceneInfo ?? {};
    const top = (b) => [b.center_m[0], b.center_m[1], b.center_m[2] + b.size_m[2] / 2];
    const r = sc.trash_rack, k = sc.truck_bed;
    const ends = r ? (() => {
      const yaw = ((r.yaw_deg ?? 0) * Math.PI) / 180;
      const long = r.size_m[0] >= r.size_m[1] ? [Math.cos(yaw), Math.sin(yaw)] : [-Math.sin(yaw), Math.cos(yaw)];
      const h = Math.max(r.size_m[0], r.size_m[1]) / 2;
      return [-1, 1].map((s) => [r.center_m[0] + s * h * long[0], r.center_m[1] + s * h * long[1], top(r)[2]]);
    })() : null;
    return { rack: r ? top(r) : null, rackEnds: ends, truck: k ? top(k) : null, crane: [0, 0, 0] };
  },
  // the clam's centre in the base frame [m], as drawn
  clamCenter() {
    const c = world?.clamCenter();
    return c ? [c.x, -c.z, c.y] : null;
  },
  // the operator's eye in the base frame [m], as drawn
  eye() {
    const e = world?.eye();
    return e ? [e.x, -e.z, e.y] : null;
  },
  // per drawn viewport, the names of those structures: {full: ['trash rack', ...]}
  occluded() {
    const r = {};
    for (const [view, faded] of Object.entries(views?.occlusion() ?? {})) r[view] = Object.keys(faded);
    return r;
  },
  software,
  // the drawing quality: 'low' or 'high', why (automatic from the renderer, or ?quality=)
  get quality() { return { quality: look.quality, reason: qualityChoice.reason, renderer: rendererName }; },
  // the last drawing's draw calls and triangles (all viewports)
  get drawn() { return { calls: renderer.info.render.calls, triangles: renderer.info.render.triangles }; },
  setContinuous(on) { continuous = Boolean(on); },
  // control -> frame and control -> draw of the changes sent on this page, in ms over the
  // last ~500: {count, toFrame: {n, p50, p99}, toDraw: {n, p50, p99}} (latency.js)
  latency: () => probe.summary(),
  clearLatency: () => probe.clear(),
  // the frame period granted (ms) and the rate asked for (?rate=), null if none
  get framePeriodMs() { return periodMs; },
  // whether the last two frames differ (the page then draws at the display's rate)
  get moving() { return motion.moving; },
  // whether it draws between frames (?smooth, else a GPU)
  smooth,
  get frameRate() { return frameRate; },
  // the machine's sound: started (after a gesture), settings, band energy for the tests
  sound,
};

// The server's rules come first (GET /api/client-config): a class code is asked for only
// when the server requires one.
async function startConnection() {
  let config = { classCodeRequired: false };
  try {
    const res = await fetch('/api/client-config', { cache: 'no-store' });
    config = parseClientConfig(await res.json());
    serverLists = { scenarios: config.scenarios, models: config.models };
    useKeyboardLayout(config.keyboard);
  } catch (e) {
    hud.note(`client-config: ${e.message ?? e}; connecting without a class code`);
    keyboardUnavailable(`no layout: GET /api/client-config failed`);
  }
  const saved = window.sessionStorage.getItem(CLASS_CODE_KEY);
  // an observer is an instructor (the login cookie), not a member of the class
  if (config.classCodeRequired && !saved && !watchOnly) return classCodeForm.ask();
  if (config.classCodeRequired) classCode = saved;
  connection.url = connectUrl();
  connection.start();
}

setView(view);
startConnection();
heartbeat();
