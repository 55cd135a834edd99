// Keeps the work in sight: a static structure (trash rack, gate, piers, deck, intake floor,
// truck) that stands between a camera and the clam, or the load in its jaws, is drawn
// see-through while it does, and opaque again once it no longer does. Each camera keeps its
// own fading (Total draws four), which eases in and out over GHOST.fadeS.
//
// The core is plain arrays (oriented boxes, points, a segment test), so the node tests run
// it; the glue at the bottom works on the three.js objects it is handed without importing
// three: it swaps each structure's meshes to ghost copies of their materials.

export const GHOST = {
  opacity: 0.25,       // of a structure fully faded
  fadeS: 0.2,          // from opaque to faded (and back)
  marginM: 0.1,        // boxes grown by this much, so a structure that just grazes the line counts
  clearanceM: 0.15,    // the last stretch before a target is ignored: a floor the jaws rest on does not hide them
  frustumSlack: 1.05,  // a target this far outside the picture (NDC) still counts
};

const FRONT_SIDE = 0;   // three's FrontSide (this file does not import three)

// An oriented box: centre, three orthonormal axes (each a unit [x, y, z]), half sizes.
export function orientedBox(center, axes, half) {
  return { center: [...center], axes: axes.map((a) => [...a]), half: [...half] };
}

// A scene box {center_m, size_m, yaw_deg} (base frame, z up, yaw about z) as an oriented
// box in the frame `map` takes base-frame vectors to (identity when left out).
export function sceneBoxToOriented(b, map = (v) => v) {
  const a = ((b.yaw_deg ?? 0) * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a);
  const origin = map([0, 0, 0]);
  const dir = (v) => map(v).map((x, k) => x - origin[k]);
  return orientedBox(map(b.center_m), [dir([c, s, 0]), dir([-s, c, 0]), dir([0, 0, 1])],
    b.size_m.map((x) => x / 2));
}

// Where the segment p + t (q - p), 0 <= t <= tEnd, first is inside the box grown by
// margin: that t (0 when p is inside), or -1 when it never is. Slabs along the box's axes.
export function segmentEntry(p, q, box, margin = 0, tEnd = 1) {
  let t0 = 0, t1 = tEnd;
  const c = box.center;
  for (let k = 0; k < 3; k++) {
    const a = box.axes[k];
    const o = (p[0] - c[0]) * a[0] + (p[1] - c[1]) * a[1] + (p[2] - c[2]) * a[2];
    const d = (q[0] - p[0]) * a[0] + (q[1] - p[1]) * a[1] + (q[2] - p[2]) * a[2];
    const h = box.half[k] + margin;
    if (Math.abs(d) < 1e-12) {
      if (o < -h || o > h) return -1;
      continue;
    }
    let ta = (-h - o) / d, tb = (h - o) / d;
    if (ta > tb) [ta, tb] = [tb, ta];
    if (ta > t0) t0 = ta;
    if (tb < t1) t1 = tb;
    if (t0 > t1) return -1;
  }
  return t0;
}

const eyeAt = [0, 0, 0];

// Which boxes hide at least one target from the eye: out[i] true for box i. A perspective
// camera sees every target from `eye`; an orthographic one (`direction`, the unit vector it
// looks along) from the point of its image plane straight behind each target. A box that
// only comes within `clearance` of a target does not count.
export function occluders(eye, targets, boxes, { direction = null, margin = GHOST.marginM,
  clearance = GHOST.clearanceM, count = targets.length, out = [] } = {}) {
  out.length = boxes.length;
  out.fill(false);
  for (let j = 0; j < count; j++) {
    const t = targets[j];
    if (direction) {
      const s = (t[0] - eye[0]) * direction[0] + (t[1] - eye[1]) * direction[1] + (t[2] - eye[2]) * direction[2];
      for (let k = 0; k < 3; k++) eyeAt[k] = t[k] - direction[k] * s;
    } else {
      for (let k = 0; k < 3; k++) eyeAt[k] = eye[k];
    }
    const len = Math.hypot(t[0] - eyeAt[0], t[1] - eyeAt[1], t[2] - eyeAt[2]);
    if (len <= clearance) continue;
    const tEnd = 1 - clearance / len;
    for (let i = 0; i < boxes.length; i++) {
      if (!out[i] && segmentEntry(eyeAt, t, boxes[i], margin, tEnd) >= 0) out[i] = true;
    }
  }
  return out;
}

// The points of the work a camera must see, in the base frame: A, C and their middle, the
// two hinges B and the two lip tips (scene.js takes them from the parts' poses), and the
// centre of the held load when there is one. p: {a, c, hinges: [right, left], lips: [right,
// left]}. Written into `out` (arrays of 3, reused); returns how many.
export function clamTargets(p, held, out) {
  const { a, c } = p;
  let n = 0;
  const put = (x, y, z) => {
    const o = out[n] ?? (out[n] = [0, 0, 0]);
    o[0] = x; o[1] = y; o[2] = z;
    n += 1;
  };
  put(a[0], a[1], a[2]);
  put(c[0], c[1], c[2]);
  put((a[0] + c[0]) / 2, (a[1] + c[1]) / 2, (a[2] + c[2]) / 2);
  for (const pt of [...p.hinges, ...p.lips]) put(pt[0], pt[1], pt[2]);
  if (held) put(held[0], held[1], held[2]);
  return n;
}

// value moved towards target by at most step
export function approach(value, target, step) {
  return value < target ? Math.min(target, value + step) : Math.max(target, value - step);
}

// ---- three.js glue ------------------------------------------------------------------------

// Projects p by the camera's view and projection matrices (column-major, as three keeps
// them): whether it lands in the picture, between the near and far planes.
export function inPicture(view, proj, p, slack = GHOST.frustumSlack) {
  const x = view[0] * p[0] + view[4] * p[1] + view[8] * p[2] + view[12];
  const y = view[1] * p[0] + view[5] * p[1] + view[9] * p[2] + view[13];
  const z = view[2] * p[0] + view[6] * p[1] + view[10] * p[2] + view[14];
  const cw = proj[3] * x + proj[7] * y + proj[11] * z + proj[15];
  if (!(cw > 0)) return false;
  const cx = (proj[0] * x + proj[4] * y + proj[8] * z + proj[12]) / cw;
  const cy = (proj[1] * x + proj[5] * y + proj[9] * z + proj[13]) / cw;
  const cz = (proj[2] * x + proj[6] * y + proj[10] * z + proj[14]) / cw;
  return Math.abs(cx) <= slack && Math.abs(cy) <= slack && cz >= -1 && cz <= 1;
}

// structures: [{name, box (oriented, in three's world frame), objects: [Object3D]}]; every
// mesh under the objects gets ghost copies of its materials, one set per structure, so a
// structure fades alone. apply() before rendering with a camera; dispose() puts the
// original materials back.
export function createGhosting(structures, opts = {}) {
  const o = { ...GHOST, ...opts };
  const units = structures.map(ghostUnit);
  // what apply() keeps between calls and reuses, in one object the functions below share
  const g = {
    o, units,
    boxes: structures.map((s) => s.box),
    perView: new Map(),  // view name -> { fade: 0..1 per structure, last: ms, occluding: [bool] }
    hidden: [],
    visible: [],
    eye: [0, 0, 0], dir: [0, 0, 0],
  };
  return {
    // Fades for `camera` (drawn as view `name`) at time nowMs, targets in the world frame
    // (count of them); true while some structure is still on its way in or out.
    apply: (name, camera, targets, count, nowMs) => applyGhosting(g, name, camera, targets, count, nowMs),
    // {structure name: opacity factor} of those drawn see-through at the view's last apply
    faded(name) {
      const st = g.perView.get(name);
      const r = {};
      if (!st) return r;
      units.forEach((u, i) => {
        if (st.fade[i] > 0) r[u.name] = Number((1 - (1 - o.opacity) * st.fade[i]).toFixed(3));
      });
      return r;
    },
    // names of the structures standing between the view's camera and the work at its last apply
    occluding(name) {
      const st = g.perView.get(name);
      return st ? units.filter((_, i) => st.occluding[i]).map((u) => u.name) : [];
    },
    dispose() {
      for (const u of units) {
        u.meshes.forEach((m, i) => { m.material = u.originals[i]; });
        for (const x of u.ghostSet) x.dispose();
      }
    },
  };
}

// A structure's meshes with their own materials and ghost copies of them.
function ghostUnit(s) {
  const meshes = [];
  for (const obj of s.objects) obj.traverse((m) => { if (m.isMesh) meshes.push(m); });
  const ghostOf = new Map();
  const ghost = (mat) => {
    if (!ghostOf.has(mat)) {
      const g = mat.clone();
      g.transparent = true;
      g.depthWrite = false;
      // its front faces only: a see-through box drawn on both sides is drawn twice (three
      // draws a two-sided transparent material back faces first, then front), which cost
      // software WebGL a fifth of the Full view's drawing with the deck faded
      g.side = FRONT_SIDE;
      g.name = `${s.name} (see-through)`;
      ghostOf.set(mat, g);
    }
    return ghostOf.get(mat);
  };
  // a mesh drawn in groups has one material per group (high quality: one per kind of surface)
  const ghosts = meshes.map((m) => (Array.isArray(m.material) ? m.material.map(ghost) : ghost(m.material)));
  return { name: s.name, meshes, originals: meshes.map((m) => m.material),
    ghosts, ghostSet: [...ghostOf.values()], shown: 0 };
}

// a unit's meshes at a fade (0: their own materials; up to 1: the ghosts at o.opacity)
function showFade(u, fade, opacity) {
  if (fade === u.shown) return;
  u.shown = fade;
  for (let i = 0; i < u.meshes.length; i++) {
    const m = u.meshes[i];
    if (fade === 0) m.material = u.originals[i];
    else {
      m.material = u.ghosts[i];
      const f = 1 - (1 - opacity) * fade;
      if (Array.isArray(m.material)) m.material.forEach((x, k) => { x.opacity = u.originals[i][k].opacity * f; });
      else m.material.opacity = u.originals[i].opacity * f;
    }
  }
}

function applyGhosting(g, name, camera, targets, count, nowMs) {
  const { o, units, hidden, visible, eye, dir } = g;
  let st = g.perView.get(name);
  if (!st) g.perView.set(name, st = { fade: new Float64Array(units.length), last: nowMs, occluding: [] });
  const dt = Math.max(0, nowMs - st.last) / 1000;
  st.last = nowMs;
  camera.updateMatrixWorld();
  const mw = camera.matrixWorld.elements;
  eye[0] = mw[12]; eye[1] = mw[13]; eye[2] = mw[14];
  let n = 0;
  for (let j = 0; j < count; j++) {
    if (inPicture(camera.matrixWorldInverse.elements, camera.projectionMatrix.elements, targets[j], o.frustumSlack)) {
      visible[n++] = targets[j];
    }
  }
  let direction = null;
  if (camera.isOrthographicCamera) {
    const l = Math.hypot(mw[8], mw[9], mw[10]) || 1;
    dir[0] = -mw[8] / l; dir[1] = -mw[9] / l; dir[2] = -mw[10] / l;
    direction = dir;
  }
  occluders(eye, visible, g.boxes, { direction, margin: o.marginM, clearance: o.clearanceM, count: n, out: hidden });
  const step = o.fadeS > 0 ? dt / o.fadeS : 1;
  let moving = false;
  for (let i = 0; i < units.length; i++) {
    const goal = hidden[i] ? 1 : 0;
    st.fade[i] = approach(st.fade[i], goal, step);
    st.occluding[i] = hidden[i];
    if (st.fade[i] !== goal) moving = true;
    showFade(units[i], st.fade[i], o.opacity);
  }
  return moving;
}
