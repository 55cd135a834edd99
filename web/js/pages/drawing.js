// The drawing, shared by every page: the renderer at the page's quality, the world and its
// five views built from the hello, and the loop that runs once per display frame. The view
// is drawn when something changed, or while the machine moves (each pose carried on from
// the last two frames, motion.js), and only then. Its state is drawingState(), kept in
// the page's context as c.draw.

import * as THREE from 'three';
import { buildWorld, configureRenderer } from '../scene.js';
import { decideQuality, probeRenderer, qualitySettings } from '../quality.js';
import { createViews, VIEWS } from '../views.js';

// Until the first hello the page knows no frame period: the server's default (20 Hz) stands
// in for it, so that the console's framePeriodMs and the motion have a number. Every hello
// replaces it with hello.frame_period_s, the period the server granted.
const PERIOD_BEFORE_HELLO_MS = 50;

export function drawingState(params) {
  return {
    world: null,           // scene.js, built from the hello
    views: null,           // views.js, the five cameras on that world
    worldKey: '',          // the hello's machine and scene the world was built from
    dirty: true,           // something changed since the last drawing
    view: VIEWS.includes(params.get('view')) ? params.get('view') : 'full',
    continuous: params.get('render') === 'continuous',
    periodMs: PERIOD_BEFORE_HELLO_MS,
    drawnAhead: -1,        // how far past the newest frame the last drawing was (periods)
    frameSinceDraw: false, // a frame arrived since the last drawing
    partsNote: null,       // why frames do not place the machine (hello.parts missing...)
    lastHud: 0,            // when the HUD's link line was last written
  };
}

// The drawing quality (quality.js): low where WebGL runs in software (SwiftShader, llvmpipe),
// which spends most of its time per pixel and on multisampling; high on a GPU; ?quality=
// overrides it. ?smooth=1 draws between frames (each pose carried on, motion.js), ?smooth=0
// draws each frame as it comes. By default only where WebGL has a GPU: in software every
// drawing takes CPU the page needs for frames and controls, and on the 2-core test machine
// drawing between frames tripled the control-to-screen time (docs/web-client.md, "Smooth
// motion").
export function createRenderer(params, canvas) {
  const rendererName = probeRenderer();
  const qualityChoice = decideQuality({ rendererName, param: params.get('quality') });
  if (qualityChoice.warning) console.warn(`clamsim: ${qualityChoice.warning}`);
  const look = qualitySettings(qualityChoice.quality);
  const software = qualityChoice.software;
  const smooth = params.has('smooth') ? params.get('smooth') !== '0' : !software;
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: look.antialias && params.get('aa') !== '0',
    preserveDrawingBuffer: params.has('screenshots') });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, look.maxPixelRatio));
  configureRenderer(renderer, look);
  return { renderer, rendererName, qualityChoice, look, software, smooth };
}

export function markDirty(c) { c.draw.dirty = true; }

export function setView(c, name) {
  if (!VIEWS.includes(name)) return;
  c.draw.view = name;
  c.draw.views?.set(name);
  // buttons only: the body carries data-view too, and aria-pressed is no attribute of it
  for (const b of document.querySelectorAll('button[data-view]')) b.setAttribute('aria-pressed', String(b.dataset.view === name));
  document.body.dataset.view = name;
  markDirty(c);
}

export function resize(c) {
  const w = c.stage.clientWidth, h = c.stage.clientHeight;
  c.gfx.renderer.setSize(w, h, false);
  c.draw.views?.resize(w, h);
  markDirty(c);
}

// A reconnect is a fresh session; the world is rebuilt only if the machine or the scene changed.
export function worldForHello(c, msg) {
  const d = c.draw;
  const key = JSON.stringify([msg.machine, msg.scene]);
  if (key === d.worldKey) return;
  d.views?.dispose();
  d.world?.dispose();
  d.world = buildWorld(msg, { look: c.gfx.look });
  d.views = createViews({ renderer: c.gfx.renderer, world: d.world, labels: document.getElementById('labels'),
    onChange: () => markDirty(c),
    overlays: () => [document.getElementById('score'), document.getElementById('lmi')] });
  d.worldKey = key;
  resize(c);
  setView(c, d.view);
}

// A fresh session: its frames start over, at the period it was granted.
export function periodForHello(c, msg) {
  const d = c.draw;
  d.periodMs = msg.frame_period_s * 1000;
  c.motion.reset();
  c.motion.configure({ periodMs: d.periodMs, stepsPerPeriod: 1 });
  d.partsNote = d.world.missingParts.length
    ? `hello.parts does not name ${d.world.missingParts.join(', ')}: the machine is not drawn` : null;
  if (d.partsNote) c.hud.note(d.partsNote);
}

// A frame's poses into the motion, or once why they cannot be drawn. speed: a replay's
// playing speed (null live): at 4x it shows every 4th frame once a period, at 0.5x one
// frame in two periods.
export function posesOfFrame(c, f, now, speed) {
  const d = c.draw;
  if (d.world.update(f)) {
    if (speed !== null) c.motion.configure({ periodMs: d.periodMs / Math.min(1, speed), stepsPerPeriod: Math.max(1, speed) });
    c.motion.push(f.seq, now, [...f.parts, ...f.loads.map((l) => [...l.position_m, ...l.orientation])],
      [f.values.cable1_m, f.values.cable2_m]);
  } else if (!d.partsNote) {
    d.partsNote = `frame ${f.seq}: no pose for every part (display.parts): the machine is not moved`;
    c.hud.note(d.partsNote);
  }
}

// Draw when something changed, or while the machine moves (at most one frame period past
// the newest frame).
function drawIfNeeded(c, now, rafNow) {
  const d = c.draw, stats = c.stats;
  const sample = d.world ? c.motion.sample(c.gfx.smooth ? now : -Infinity) : null;
  const moving = c.gfx.smooth && Boolean(sample?.moving) && sample.ahead !== d.drawnAhead;
  if (!d.world || !(d.dirty || d.continuous || moving)) return;
  if (!d.frameSinceDraw) stats.drawsBetween += 1;   // no new frame since the last drawing
  d.frameSinceDraw = false;
  d.dirty = false;
  const t0 = performance.now();
  if (sample) {
    d.world.place(sample.poses, sample.scalars);
    d.drawnAhead = sample.ahead;
  }
  d.views.render(now);
  if (d.views.fading) d.dirty = true;
  const t1 = performance.now();
  stats.renderMs = 0.9 * stats.renderMs + 0.1 * (t1 - t0);
  stats.renders.push(rafNow);
  stats.draws += 1;
  c.probe.drawn(t1);
}

// Once per display frame: the mapping screen ticks, everyFrame(now) runs (the controls
// polled), the view is drawn if it must be, and four times a second the link line.
export function startDrawing(c, everyFrame, showStats) {
  new ResizeObserver(() => resize(c)).observe(c.stage);
  c.gfx.renderer.setAnimationLoop((rafNow) => {
    if (c.mappingScreen.isOpen) c.mappingScreen.tick();
    const now = performance.now();
    everyFrame(now);
    drawIfNeeded(c, now, rafNow);
    if (now - c.draw.lastHud > 250) {
      c.draw.lastHud = now;
      showStats(c, rafNow);
    }
  });
}
