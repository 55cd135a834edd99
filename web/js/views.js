// The five views of thesis 3.2.5: Full (orbit around everything), Top (orthographic, grid),
// Window (operator's seat, turns with the swing), Focus (follows the clam, readable under
// water) and Total (the other four, one viewport each). In each, a structure between the
// camera and the clam is drawn see-through (occlusion.js).

import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { createGhosting } from './occlusion.js';
import { workFrame } from './geometry.js';

export const VIEWS = ['full', 'top', 'window', 'focus', 'total'];
export const VIEW_LABELS = { full: 'Full', top: 'Top', window: 'Window', focus: 'Focus', total: 'Total' };
const TOTAL_LAYOUT = ['full', 'top', 'window', 'focus'];  // top-left, top-right, bottom-left, bottom-right
const TOP_LAYER = 1;  // the grid is drawn by the top camera only
const WINDOW_MAX_DOWN = (20 * Math.PI) / 180;
// The Window camera's near plane [m]: past the cab's own pillars and roof, which at the
// eye's 0.3-0.6 m filled most of the picture; the operator looks through them at the grab.
const WINDOW_NEAR = 1.2;
const OVERLAY_EVERY_MS = 500;   // how often the panels over the Top view are measured

// Full: free orbit, first from the water side, framing the crane's reach.
function fullCamera(world, dom, span, wl) {
  const reach = world.machine.crane.telescope_max_m;
  const camera = new THREE.PerspectiveCamera(50, 1, 0.1, span * 20);
  const target = new THREE.Vector3(reach * 0.4, Math.max(wl, 0), 0);
  camera.position.copy(target).add(new THREE.Vector3(reach * 1.1, reach * 0.7, -reach * 0.9));
  const controls = new OrbitControls(camera, dom);
  controls.target.copy(target);
  controls.maxDistance = span * 5;
  controls.update();
  return { camera, controls };
}

// Top: orthographic straight down, base frame's +y up the screen. It opens on the work (the
// crane, the bay with its rack and gate, the truck: `work`), not the whole dam, and zooms
// about the cursor, so what is under the pointer stays there.
function topCamera(world, dom, work, wl) {
  const { area } = world;
  const workCenter = new THREE.Vector3(work.center[0], wl, -work.center[1]);
  const camera = new THREE.OrthographicCamera(-1, 1, 1, -1, 0.1, (area.zMax - area.zMin) * 4 + 200);
  camera.up.set(0, 0, -1);
  camera.position.set(workCenter.x, area.zMax + 50, workCenter.z);
  camera.layers.enable(TOP_LAYER);
  const controls = new OrbitControls(camera, dom);
  controls.enableRotate = false;
  controls.screenSpacePanning = true;
  controls.zoomToCursor = true;
  controls.minZoom = 0.25;
  controls.maxZoom = 12;
  controls.target.copy(workCenter);
  controls.update();
  return { camera, controls };
}

// The Top view's 1 m / 5 m grid, on the water or on the deck above it, seen by the top
// camera only. Returns the two grids (fine, coarse).
function addGrid(world, span, wl) {
  const { area } = world;
  const center = new THREE.Vector3(area.center[0], wl, -area.center[1]);
  const gridSize = Math.ceil(span / 5) * 5;
  const fine = new THREE.GridHelper(gridSize, gridSize, 0x6f8fa0, 0x6f8fa0);
  const coarse = new THREE.GridHelper(gridSize, gridSize / 5, 0xffffff, 0xe0e8ee);
  const gridY = Math.max(wl, world.groundLevel);
  for (const [g, dy] of [[fine, 0.02], [coarse, 0.04]]) {
    g.position.set(center.x, gridY + dy, center.z);
    g.material.transparent = true;
    g.material.opacity = g === fine ? 0.35 : 0.8;
    g.layers.set(TOP_LAYER);
    world.scene.add(g);
  }
  return [fine, coarse];
}

// Focus: close to the clam, mostly across its plane so the jaws are seen opening. The near
// plane sits just in front of the clam (followClam): whatever stands between (a pier, the
// rack) is cut away, so the clam stays in sight in the narrow intake bay.
function focusCamera(world, dom, span) {
  const camera = new THREE.PerspectiveCamera(45, 1, 0.05, span * 10);
  const controls = new OrbitControls(camera, dom);
  controls.minDistance = world.clamSize * 0.6;
  controls.maxDistance = world.clamSize * 12;
  return { camera, controls };
}

// overlays(): the page's panels over the view (the score panel, the load moment gauge): the
// Top view frames the work beside those at the viewport's right, not under them.
// The views' state lives in one object (v) that the functions below share.
export function createViews({ renderer, world, labels, onChange, overlays = () => [] }) {
  const dom = renderer.domElement;
  world.prepare?.(renderer);
  const { area, waterLevel: wl } = world;
  const span = Math.max(area.size[0], area.size[1]);
  const full = fullCamera(world, dom, span, wl);
  const work = workFrame(world.machine, world.sceneInfo);
  const top = topCamera(world, dom, work, wl);
  const grids = addGrid(world, span, wl);
  // Window: from the operator's seat towards the clam
  const win = new THREE.PerspectiveCamera(62, 1, WINDOW_NEAR, span * 20);
  const focus = focusCamera(world, dom, span);
  const focusDist = world.clamSize * 1.7;
  const v = {
    renderer, dom, world, labels, onChange, overlays, wl, work, grids, focusDist,
    cameras: { full: full.camera, top: top.camera, window: win, focus: focus.camera },
    controls: { full: full.controls, top: top.controls, focus: focus.controls },
    focusAnchor: null,  // last clam centre the focus camera followed
    // a camera the trainee moved asks for a drawing; one moved by followClam(), inside a
    // drawing, does not (it would ask for a second drawing of the same frame)
    following: false,
    // under water: exponential fog that keeps the clam readable at the focus distance
    // (exp(-(d r)^2) = 0.8 at r = focusDist) and hides what is three times as far
    underwaterFog: new THREE.FogExp2(world.colors.underwater, 0.47 / focusDist),
    sky: new THREE.Color(world.colors.sky),
    deep: new THREE.Color(world.colors.underwater),
    // structures hiding the clam fade, per camera: each viewport sets its own before drawing
    ghosting: createGhosting(world.structures),
    fading: false,
    current: 'full',
    size: { w: 1, h: 1 },
    // px of a viewport's right side under the page's panels, measured every OVERLAY_EVERY_MS
    overlayRects: [],
    overlayAt: -Infinity,
  };
  v.changed = () => {
    if (!v.following) onChange();
  };
  for (const c of Object.values(v.controls)) c.addEventListener('change', v.changed);
  // in Total, a drag or wheel steers the camera of the quadrant it starts in
  v.pickQuadrant = (ev) => pickQuadrant(v, ev);
  dom.addEventListener('pointerdown', v.pickQuadrant, { capture: true });
  dom.addEventListener('wheel', v.pickQuadrant, { capture: true, passive: true });
  setView(v, 'full');
  return {
    set: (name) => setView(v, name),
    resize: (w, h) => resize(v, w, h),
    render: (now) => renderViews(v, now),
    dispose: () => disposeViews(v),
    viewports: () => viewports(v),
    occlusion: () => occlusion(v),
    project: (name, p) => project(v, name, p),
    get current() { return v.current; },
    // a structure is still fading in or out: draw again next animation frame
    get fading() { return v.fading; },
    next() { setView(v, VIEWS[(VIEWS.indexOf(v.current) + 1) % VIEWS.length]); return v.current; },
  };
}

// px of a viewport's right side under the page's panels (measured every OVERLAY_EVERY_MS,
// not every frame: a layout read per frame would cost more than the drawing)
function rightInset(v, vp, now) {
  if (now - v.overlayAt > OVERLAY_EVERY_MS) {
    v.overlayAt = now;
    const r = v.dom.getBoundingClientRect();
    v.overlayRects = v.overlays().filter((e) => e && e.offsetParent !== null).map((e) => {
      const b = e.getBoundingClientRect();
      return { left: b.left - r.left, right: b.right - r.left, top: b.top - r.top, bottom: b.bottom - r.top };
    });
  }
  let inset = 0;
  for (const b of v.overlayRects) {
    const overlaps = b.right > vp.x && b.left < vp.x + vp.w && b.bottom > vp.y && b.top < vp.y + vp.h;
    if (overlaps && b.left > vp.x + vp.w / 2) inset = Math.max(inset, vp.x + vp.w - b.left);
  }
  return Math.min(inset, vp.w / 2);
}

function enableControls(v, active) {
  for (const [name, c] of Object.entries(v.controls)) c.enabled = active.includes(name);
}

function viewports(v) {
  const { w, h } = v.size;
  if (v.current !== 'total') return [{ name: v.current, x: 0, y: 0, w, h }];
  const hw = Math.floor(w / 2), hh = Math.floor(h / 2);
  return TOTAL_LAYOUT.map((name, i) => ({ name, x: (i % 2) * hw, y: i < 2 ? 0 : hh,
    w: i % 2 ? w - hw : hw, h: i < 2 ? hh : h - hh }));
}

function pickQuadrant(v, ev) {
  if (v.current !== 'total') return;
  const r = v.dom.getBoundingClientRect();
  const x = ev.clientX - r.left, y = ev.clientY - r.top;
  const vp = viewports(v).find((q) => x >= q.x && x < q.x + q.w && y >= q.y && y < q.y + q.h);
  enableControls(v, vp ? [vp.name] : []);
}

function placeLabels(v) {
  if (!v.labels) return;
  v.labels.replaceChildren(...viewports(v).map((vp) => {
    const el = document.createElement('div');
    el.className = 'view-label';
    el.textContent = VIEW_LABELS[vp.name];
    el.style.left = `${vp.x + 8}px`;
    el.style.top = `${vp.y + 8}px`;
    return el;
  }));
}

function setView(v, name) {
  if (!VIEWS.includes(name)) return false;
  v.current = name;
  enableControls(v, name === 'total' ? ['full', 'top', 'focus'] : [name]);
  placeLabels(v);
  v.onChange();
  return true;
}

function resize(v, w, h) {
  v.size = { w: Math.max(1, w), h: Math.max(1, h) };
  placeLabels(v);
}

// cameras that move with the machine
function followClam(v) {
  const { world } = v;
  const clam = world.clamCenter();
  if (!clam) return;
  // the operator looks at the clam, but no steeper than MAX_DOWN through the window
  const win = v.cameras.window;
  const eye = world.eye();
  win.position.copy(eye);
  const look = clam.clone().sub(eye);
  const flat = Math.hypot(look.x, look.z);
  if (flat > 1e-6 && Math.atan2(-look.y, flat) > WINDOW_MAX_DOWN) look.y = -flat * Math.tan(WINDOW_MAX_DOWN);
  win.lookAt(eye.clone().add(look));
  const focus = v.cameras.focus, focusControls = v.controls.focus, focusDist = v.focusDist;
  if (!v.focusAnchor) {
    focusControls.target.copy(clam);
    const dir = world.heading().multiplyScalar(0.35).add(world.clamAcross().normalize()).normalize();
    focus.position.copy(clam).addScaledVector(dir, focusDist).add(new THREE.Vector3(0, focusDist * 0.3, 0));
  } else {
    const d = clam.clone().sub(v.focusAnchor);
    focus.position.add(d);
    focusControls.target.add(d);
  }
  v.focusAnchor = clam.clone();
  v.following = true;
  focusControls.update();
  v.following = false;
  focus.near = Math.max(0.05, focus.position.distanceTo(focusControls.target) - world.clamSize * 0.8);
}

function setEnvironment(v, camera) {
  const { world } = v;
  const under = camera.isPerspectiveCamera && camera.position.y < v.wl;
  // the water's turbidity (water-look.js) thickens the fog and tints it
  const look = world.state.water;
  if (look) {
    v.underwaterFog.density = look.fogPerFocus / v.focusDist;
    v.underwaterFog.color.setHex(look.deepColor);
    v.deep.setHex(look.deepColor);
  }
  world.scene.fog = under ? v.underwaterFog : null;
  world.scene.background = under ? v.deep : v.sky;
  // the sky dome around a perspective camera above the water; the top view looks down
  // onto its plain colour
  if (world.sky) world.sky.visible = !under && camera.isPerspectiveCamera;
  return under;
}

// the work frame fits the part of the viewport left of the panels, centred there
function fitTop(v, vp, camera, now) {
  const aspect = vp.w / vp.h;
  const inset = rightInset(v, vp, now);
  const free = (vp.w - inset) / vp.w;
  const halfH = Math.max(v.work.size[1] / 2, v.work.size[0] / 2 / (aspect * free));
  const halfW = halfH * aspect;
  const shift = (inset / vp.w) * halfW;   // the frame's centre moves left by half the inset
  camera.left = -halfW + shift;
  camera.right = halfW + shift;
  camera.top = halfH;
  camera.bottom = -halfH;
}

function renderOne(v, vp, camera, now) {
  const { renderer, world } = v;
  if (camera.isOrthographicCamera) fitTop(v, vp, camera, now);
  else camera.aspect = vp.w / vp.h;
  camera.updateProjectionMatrix();
  const under = setEnvironment(v, camera);
  if (v.ghosting.apply(vp.name, camera, world.targets.points, world.targets.count, now)) v.fading = true;
  // WebGL's viewport origin is bottom-left
  const y = v.size.h - vp.y - vp.h;
  renderer.setViewport(vp.x, y, vp.w, vp.h);
  renderer.setScissor(vp.x, y, vp.w, vp.h);
  renderer.setScissorTest(true);
  renderer.render(world.scene, camera);
  return under;
}

// now: ms (performance.now()), paces the fading
function renderViews(v, now = performance.now()) {
  const { renderer } = v;
  followClam(v);
  v.fading = false;
  v.world.animate?.(now / 1000);
  // one shadow map for all the viewports of a drawing; counters over all of them
  renderer.shadowMap.needsUpdate = renderer.shadowMap.enabled;
  renderer.info.reset();
  const underwater = {};
  for (const vp of viewports(v)) underwater[vp.name] = renderOne(v, vp, v.cameras[vp.name], now);
  return underwater;
}

// Where a point of the base frame (x, y, z [m]) is drawn in a viewport of the current
// layout, in CSS px from the canvas's top left, as of the last drawing; null when that view
// is not drawn. `inFront`: before the near plane's far side (drawn at all).
function project(v, name, p) {
  const vp = viewports(v).find((q) => q.name === name);
  if (!vp) return null;
  const camera = v.cameras[name];
  const q = new THREE.Vector3(p[0], p[2], -p[1]).project(camera);
  return { x: vp.x + ((q.x + 1) / 2) * vp.w, y: vp.y + ((1 - q.y) / 2) * vp.h, inFront: q.z > -1 && q.z < 1,
    near: camera.near, distance: camera.position.distanceTo(new THREE.Vector3(p[0], p[2], -p[1])) };
}

// per drawn viewport: {structure name: opacity} of the structures drawn see-through
function occlusion(v) {
  const r = {};
  for (const vp of viewports(v)) r[vp.name] = v.ghosting.faded(vp.name);
  return r;
}

function disposeViews(v) {
  v.dom.removeEventListener('pointerdown', v.pickQuadrant, { capture: true });
  v.dom.removeEventListener('wheel', v.pickQuadrant, { capture: true });
  for (const c of Object.values(v.controls)) {
    c.removeEventListener('change', v.changed);
    c.dispose();
  }
  v.ghosting.dispose();
  for (const g of v.grids) {
    v.world.scene.remove(g);
    g.geometry.dispose();
    g.material.dispose();
  }
}
