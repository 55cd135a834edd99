// window.clamsim: what the page knows, for the console and the end-to-end tests
// (docs/web-client.md lists it). The same names on every page; what a page kind has not
// (an observer's inputs on a trainee's page, a replay's state on a live one) is null.

import { keyboardLayout } from '../input.js';
import { hitRuleOf } from '../task.js';
import { setView } from './drawing.js';
import { requestRestart } from './task-view.js';

// What is drawn, for the end-to-end tests: load meshes, contact markers, warnings, score.
function debugView(c) {
  const t = c.task, d = c.draw;
  return {
    ...(d.world?.counts() ?? { loadMeshes: 0, loadsVisible: 0, kinds: [], heldLoad: null, markers: 0 }),
    sceneLoads: t.sceneInfo?.loads?.length ?? 0,
    warnings: t.warnings.map((w) => w.id),
    // the world's event counters of the last frame (display.events)
    events: c.lastFrame?.events ?? null,
    score: t.lastScore,
    scoreVisible: !document.getElementById('score').hidden,
    reportOpen: c.taskUi.reportOpen,
    restarts: { ...t.restartStats },
    rumble: { enabled: c.operator.rumbleOn, ...c.operator.rumbleStats },
    trainee: c.trainee.view(),
    hitRule: hitRuleOf(t.sceneInfo?.task),
    // the gauge's levels (the server's) and the crane as drawn: its tilt in degrees
    loadMoment: { levels: t.lmiLevels, pct: c.lastFrame?.load_moment_pct ?? null, lmi: c.lastFrame?.lmi ?? null },
    tiltDeg: d.world?.state.tiltDeg ?? 0,
    lesson: { shown: c.lessonUi.visible, offered: t.offeredLesson, progress: t.lastLesson, scenario: t.scenario },
  };
}

// The work's points in the base frame [m] (the scene's): the rack's centre and the ends of
// its long side, the truck's bed, the crane's swing axis.
function workPoints(sc) {
  const top = (b) => [b.center_m[0], b.center_m[1], b.center_m[2] + b.size_m[2] / 2];
  const r = sc.trash_rack, k = sc.truck_bed;
  const ends = r ? (() => {
    const yaw = ((r.yaw_deg ?? 0) * Math.PI) / 180;
    const long = r.size_m[0] >= r.size_m[1] ? [Math.cos(yaw), Math.sin(yaw)] : [-Math.sin(yaw), Math.cos(yaw)];
    const h = Math.max(r.size_m[0], r.size_m[1]) / 2;
    return [-1, 1].map((s) => [r.center_m[0] + s * h * long[0], r.center_m[1] + s * h * long[1], top(r)[2]]);
  })() : null;
  return { rack: r ? top(r) : null, rackEnds: ends, truck: k ? top(k) : null, crane: [0, 0, 0] };
}

// The drawing's parts of the API: views, where things are drawn, quality, smoothness.
function drawingApi(c) {
  const d = c.draw, g = c.gfx;
  return {
    // per drawn viewport, the structures drawn see-through because they hide the clam:
    // {full: {'trash rack': 0.25, ...}} (opacity factor; 1 would be opaque)
    occlusion: () => d.views?.occlusion() ?? {},
    // where a base-frame point (x, y, z [m]) is drawn in a view: {x, y} CSS px on the canvas
    project: (name, p) => d.views?.project(name, p) ?? null,
    workPoints: () => workPoints(c.task.sceneInfo ?? {}),
    // the clam's centre in the base frame [m], as drawn
    clamCenter() {
      const e = d.world?.clamCenter();
      return e ? [e.x, -e.z, e.y] : null;
    },
    // the operator's eye in the base frame [m], as drawn
    eye() {
      const e = d.world?.eye();
      return e ? [e.x, -e.z, e.y] : null;
    },
    // per drawn viewport, the names of those structures: {full: ['trash rack', ...]}
    occluded() {
      const r = {};
      for (const [view, faded] of Object.entries(d.views?.occlusion() ?? {})) r[view] = Object.keys(faded);
      return r;
    },
    software: g.software,
    // whether it draws between frames (?smooth, else a GPU)
    smooth: g.smooth,
    setContinuous(on) { d.continuous = Boolean(on); },
  };
}

export function consoleApi(c) {
  const page = c.page, d = c.draw, g = c.gfx;
  return {
    get view() { return d.view; },
    setView: (name) => setView(c, name),
    get stats() { return { ...c.stats, arrivals: undefined, renders: undefined }; },
    get frame() { return c.lastFrame; },
    get link() { return c.link.link; },
    get report() { return c.task.lastReport; },
    get session() { return c.link.sessionId; },
    // observer mode: hello.observing (null on a trainee's page) and the trainee's last inputs
    get observing() { return page.api.observing; },
    get observedVolts() { return page.api.observedVolts; },
    // replay mode: what replay.js knows (hello.replay, progress, events, playing, speed, k)
    get replay() { return page.api.replay; },
    // the instructor's desk (who drives, this page's place in it) and what this page sends
    get desk() { return page.api.desk; },
    get drivingVolts() { return c.controls.drivingVolts; },
    // the trainee's name: stored, acknowledged by this session, state, last refusal, sent
    get trainee() { return c.trainee.view(); },
    // practice: true for a practice attempt (no time limit)
    restart: (practice) => requestRestart(c, 'console', practice),
    // the help overlay, for the end-to-end tests
    help: c.help,
    get keyboard() { return keyboardLayout(); },
    // the world this page is in: a scenario name, or null for the server's own
    get scenario() { return c.task.scenario; },
    // its task as the scene names it (hello.scene.task: title, load ids, times), or null
    get task() { return c.task.sceneInfo?.task ?? null; },
    debug: () => debugView(c),
    ...drawingApi(c),
    // the drawing quality: 'low' or 'high', why (automatic from the renderer, or ?quality=)
    get quality() { return { quality: g.look.quality, reason: g.qualityChoice.reason, renderer: g.rendererName }; },
    // the last drawing's draw calls and triangles (all viewports)
    get drawn() { return { calls: g.renderer.info.render.calls, triangles: g.renderer.info.render.triangles }; },
    // control -> frame and control -> draw of the changes sent on this page, in ms over the
    // last ~500: {count, toFrame: {n, p50, p99}, toDraw: {n, p50, p99}} (latency.js)
    latency: () => c.probe.summary(),
    clearLatency: () => c.probe.clear(),
    // the frame period granted (ms; hello.frame_period_s) and the rate asked for (?rate=), null if none
    get framePeriodMs() { return d.periodMs; },
    // whether the last two frames differ (the page then draws at the display's rate)
    get moving() { return c.motion.moving; },
    get frameRate() { return c.frameRate; },
    // the machine's sound: started (after a gesture), settings, band energy for the tests
    sound: c.sound,
  };
}
