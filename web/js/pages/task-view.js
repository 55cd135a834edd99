// The working world and the training task as every page shows them: the scene of the
// hello, contact markers, warning badges, the score panel and the end-of-task report, the
// first lesson's panel (and, on a trainee's page, its offer), and restarting the task (the
// page says whether it may: c.page.restartRefusal()). Its state is taskState(), kept in
// the page's context as c.task.

import { restartMessage } from '../protocol.js';
import { keyboardLayout } from '../input.js';
import { makeWarningTracker, makeRestartGuard, hitRuleOf, parseAdvice, adviceFacts } from '../task.js';
import { loadMomentLevels } from '../load-moment.js';
import { lessonView, lessonOffer, LESSON_CHOICE_KEY } from '../lesson.js';
import { createLessonUi } from '../lesson-ui.js';
import { updateMarkers } from '../markers.js';
import { createTaskUi } from '../task-ui.js';

const CONFIRM_RESTART_MS = 3000;   // how long "press R again" stands

export function taskState(params) {
  return {
    // the world this page asks for: ?scenario=NAME (the first lesson), else the server's own
    scenario: params.get('scenario') || null,
    sceneInfo: null,        // hello.scene (loads, task)
    lmiLevels: null,        // hello.machine.load_moment: the indicator's levels, the server's
    adviceFacts: null,      // the figures the advice texts name ({slack_margin_m}), from hello.machine
    markers: [],            // contact markers (markers.js)
    warnings: [],           // the badges of the last frame (task.js)
    lastScore: null,
    lastLesson: null,       // display.lesson of the last frame (first lesson only)
    lastReport: null,
    offeredLesson: null,    // the lesson offered in the dam task (a trainee's page only)
    restartId: 0,
    restartStats: { sent: 0, acknowledged: 0, reports: 0 },
    confirmRestartUntil: 0, // "press R again" shown until then
    // what each penalty event means and how to avoid it (web/data/advice.json, the one place
    // those words live); until it comes, or if it cannot, the badges alone
    adviceData: null,
  };
}

// The task's trackers and panels, and the advice fetched once.
export function createTaskParts(c) {
  c.warningTracker = makeWarningTracker();
  c.restartGuard = makeRestartGuard();
  fetch(new URL('../../data/advice.json', import.meta.url), { cache: 'no-store' })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))))
    .then((raw) => { c.task.adviceData = parseAdvice(raw); })
    .catch((e) => c.hud.note(`advice.json: ${e.message ?? e}: penalties show without their explanation`));
  c.taskUi = createTaskUi({ warnings: document.getElementById('warnings'), score: document.getElementById('score'),
    report: document.getElementById('report'), onRestart: (source, practice) => requestRestart(c, source, practice),
    onReplay: c.page.replayMyRun });
  c.lessonUi = createLessonUi({ panel: document.getElementById('lesson'), offer: document.getElementById('lesson-offer'),
    onStart() {
      c.hud.note(`lesson: starting "${c.task.offeredLesson}"`);
      switchWorld(c, c.task.offeredLesson);
    },
    onLeave(why) {
      rememberLesson(why);
      c.lessonUi.offer(null);
      if (c.task.sceneInfo?.lesson) switchWorld(c, null);
    },
    // the dam task again, as a practice attempt: the server scores it without a time limit
    onPractice() {
      rememberLesson('skipped');
      c.lessonUi.offer(null);
      requestRestart(c, 'lesson offer', true);
    } });
}

// The first lesson is taken in its own world (docs/training-task.md): a new connection.
function switchWorld(c, name) {
  c.task.scenario = name;
  c.connection.stop();
  c.connection.url = c.page.url();
  c.connection.start();
}

function rememberLesson(choice) {
  try { window.localStorage.setItem(LESSON_CHOICE_KEY, choice); } catch { /* storage blocked */ }
}

// A fresh session: a fresh attempt at the task.
export function taskForHello(c, msg) {
  const t = c.task;
  t.sceneInfo = msg.scene;
  t.lastLesson = null;
  if (t.sceneInfo.lesson) c.lessonUi.show(lessonView(t.sceneInfo.lesson, null));
  else c.lessonUi.hide();
  t.offeredLesson = t.sceneInfo.lesson || c.choice.watchOnly || c.choice.takeover ? null
    : lessonOffer(t.sceneInfo, window.localStorage);
  c.lessonUi.offer(t.offeredLesson);
  t.lmiLevels = loadMomentLevels(msg.machine);
  t.adviceFacts = adviceFacts(msg.machine);
  c.hud.loadMomentLevels(t.lmiLevels);
  c.sound.hello(msg.machine);
  t.markers = [];
  c.warningTracker.reset();
  c.rumbleTracker.reset();
  c.restartGuard.cancel();
  c.taskUi.hideReport();
  t.lastReport = null;
}

// A frame's contacts and warnings.
export function markersAndWarnings(c, f, now) {
  const t = c.task;
  t.markers = updateMarkers(t.markers, f.contacts, now);
  c.draw.world.updateMarkers(t.markers, now);
  t.warnings = c.warningTracker.update(f, { now, hitRule: hitRuleOf(t.sceneInfo?.task),
    loadMassKg: (i) => t.sceneInfo?.loads?.find((l) => l.index === i)?.mass_kg ?? 0,
    // the tip-over banner names the key only where this page can restart
    restartKey: c.choice.watchOnly ? null : keyboardLayout()?.actions.restart.label ?? 'R', adviceData: t.adviceData,
    adviceFacts: t.adviceFacts });
  showWarnings(c, now);
}

// A frame's score and lesson progress.
export function scoreAndLesson(c, f) {
  const t = c.task;
  if (f.score) {
    c.taskUi.score(f.score, t.sceneInfo?.task);
    t.lastScore = f.score;
  }
  if (f.lesson && t.sceneInfo?.lesson) {
    if (f.lesson.finished && !t.lastLesson?.finished) rememberLesson('done');
    c.lessonUi.show(lessonView(t.sceneInfo.lesson, f.lesson));
    t.lastLesson = f.lesson;
  }
}

export function showReport(c, m) {
  c.task.lastReport = m;
  c.task.restartStats.reports += 1;
  c.taskUi.report(m.report, c.task.lastScore, c.task.lmiLevels);
}

// The server put the world back.
export function taskRestarted(c) {
  c.task.restartStats.acknowledged += 1;
  c.taskUi.hideReport();
  c.task.lastReport = null;
  c.task.markers = [];
  c.warningTracker.reset();
  c.rumbleTracker.reset();
  c.motion.reset();   // the world is put back: its next frame is drawn as it is
  c.hud.note('task restarted');
}

// practice: a practice attempt (no time limit); by default R and the score panel's button
// repeat the kind of attempt under way
export function requestRestart(c, source, practice = c.task.lastScore?.practice === true) {
  const refused = c.page.restartRefusal();
  if (refused) {
    c.hud.note(refused);
    return false;
  }
  if (!c.connection.isOpen) {
    c.hud.note('restart: not connected');
    return false;
  }
  c.connection.send(restartMessage(++c.task.restartId, practice));
  c.task.restartStats.sent += 1;
  c.restartGuard.cancel();
  c.task.confirmRestartUntil = 0;
  c.hud.note(`restart requested (${source}${practice ? ', practice' : ''})`);
  return true;
}

// Key R and the joystick's restart button: a second press confirms while a task runs.
export function restartPressed(c, source) {
  const now = performance.now();
  const s = c.task.lastScore;
  const running = Boolean(s?.enabled && s.running && !s.finished) && !c.taskUi.reportOpen;
  if (c.restartGuard.press(now, running) === 'restart') requestRestart(c, source);
  else {
    c.task.confirmRestartUntil = now + CONFIRM_RESTART_MS;
    showWarnings(c, now);
  }
}

function showWarnings(c, now) {
  const t = c.task;
  const list = now < t.confirmRestartUntil
    ? [{ id: 'confirm-restart', text: `Press ${keyboardLayout()?.actions.restart.label ?? 'the restart key'} (or the restart button) again to restart the task`, level: 'warn' }, ...t.warnings]
    : t.warnings;
  c.taskUi.warnings(list);
}
