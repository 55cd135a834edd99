// Where things are, from the server's part poses (display.parts): points of a part, its
// axes, and the cable curves and their tubes. Base frame: origin on the swing axis at the
// swing base, z up, metres. The server computes every pose; nothing here is kinematics.
// Plain arrays, no three.js, so the node tests run it.

export const DEG = Math.PI / 180;

function sub(a, b) { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }
function add(a, b) { return [a[0] + b[0], a[1] + b[1], a[2] + b[2]]; }
function scale(a, s) { return [a[0] * s, a[1] * s, a[2] * s]; }
function dot(a, b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
export function norm(a) { return Math.hypot(a[0], a[1], a[2]); }
export function distance(a, b) { return norm(sub(a, b)); }

function unit(a, fallback) {
  const n = norm(a);
  return n > 1e-9 ? scale(a, 1 / n) : fallback;
}

// ---- quaternions [w, x, y, z], as the server sends them -------------------------------

// three.js's Quaternion takes (x, y, z, w).
export function quatToThree(q) {
  return [q[1], q[2], q[3], q[0]];
}

// v rotated by the unit quaternion q = [w, x, y, z]: v + 2 w (r x v) + 2 r x (r x v).
export function rotateByQuat(q, v) {
  const [w, x, y, z] = q;
  const tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

// ---- poses [x, y, z, qw, qx, qy, qz] (display.parts) ---------------------------------

// The point at `local` in the part's frame, in the base frame.
export function posePoint(pose, local, out = [0, 0, 0]) {
  const r = rotateByQuat([pose[3], pose[4], pose[5], pose[6]], local);
  out[0] = pose[0] + r[0];
  out[1] = pose[1] + r[1];
  out[2] = pose[2] + r[2];
  return out;
}

// The part's axis k (0 x, 1 y, 2 z) in the base frame.
export function poseAxis(pose, k) {
  return rotateByQuat([pose[3], pose[4], pose[5], pose[6]], [k === 0 ? 1 : 0, k === 1 ? 1 : 0, k === 2 ? 1 : 0]);
}

// {name: index} from hello.parts; null when the hello names no parts.
export function partIndex(names) {
  if (!Array.isArray(names)) return null;
  return Object.fromEntries(names.map((n, i) => [n, i]));
}

// Slack of a cable of unstretched length L hung between p0 and p1: L minus the straight
// distance, never negative (a taut rope is a little stretched, L < distance).
export function cableSlack(p0, p1, length) {
  return Math.max(0, length - distance(p0, p1));
}

// Unit vector perpendicular to the chord p0-p1, towards `side` (projected), else down.
export function sagDirection(p0, p1, side) {
  const chord = unit(sub(p1, p0), [0, 0, -1]);
  for (const d of [side, [0, 0, -1], [1, 0, 0], [0, 1, 0]]) {
    if (!d) continue;
    const perp = sub(d, scale(chord, dot(d, chord)));
    if (norm(perp) > 1e-6) return unit(perp);
  }
  return [1, 0, 0];
}

// Sideways bow at the middle of the drawn cable: proportional to the slack, as the thesis's
// NURBS control-point offsets (3.2.4), and never more than half the cable's length.
export function cableSag(slack, length, sagPerSlack = 1) {
  return Math.min(Math.max(0, slack) * sagPerSlack, Math.max(0, length) / 2);
}

// Points along the quadratic Bezier p0 - ctrl - p1 whose middle is `sag` off the chord
// (the control point sits 2 sag off the chord's middle).
export function cableCurve(p0, p1, length, side, { sagPerSlack = 1, segments = 16 } = {}) {
  const slack = cableSlack(p0, p1, length);
  const sag = cableSag(slack, length, sagPerSlack);
  const mid = scale(add(p0, p1), 0.5);
  const ctrl = add(mid, scale(sagDirection(p0, p1, side), 2 * sag));
  const points = [];
  for (let i = 0; i <= segments; i++) {
    const t = i / segments, s = 1 - t;
    points.push([0, 1, 2].map((k) => s * s * p0[k] + 2 * s * t * ctrl[k] + t * t * p1[k]));
  }
  return { points, slack, sag, ctrl };
}

// ---- a tube along a polyline, rewritten in place ---------------------------------------
// A cable's mesh keeps one vertex layout for its life: one ring of `radial` vertices per
// point of its curve. tubeIndices gives the triangles once; writeTube rewrites the
// positions and normals at every draw (no new geometry, nothing for the GC).

export function tubeIndices(rings, radial) {
  const idx = new (rings * radial > 65535 ? Uint32Array : Uint16Array)((rings - 1) * radial * 6);
  let n = 0;
  for (let i = 0; i < rings - 1; i++) {
    for (let j = 0; j < radial; j++) {
      const a = i * radial + j, b = i * radial + ((j + 1) % radial), c = a + radial, d = b + radial;
      // counter-clockwise seen from outside the tube
      idx[n++] = a; idx[n++] = b; idx[n++] = c;
      idx[n++] = b; idx[n++] = d; idx[n++] = c;
    }
  }
  return idx;
}

// Rings around each point, turned by parallel transport (each ring's normal is the last
// one's with its part along the new tangent removed), so the tube does not twist.
export function writeTube(points, radius, radial, positions, normals) {
  const n = points.length;
  let nx = 0, ny = 0, nz = 0;
  for (let i = 0; i < n; i++) {
    const p = points[i], a = points[i > 0 ? i - 1 : 0], b = points[i < n - 1 ? i + 1 : n - 1];
    let tx = b[0] - a[0], ty = b[1] - a[1], tz = b[2] - a[2];
    const tl = Math.hypot(tx, ty, tz);
    if (tl > 1e-12) { tx /= tl; ty /= tl; tz /= tl; } else { tx = 0; ty = 0; tz = -1; }
    // the previous normal made perpendicular to this tangent; a fresh one at the start
    let d = nx * tx + ny * ty + nz * tz;
    let mx = nx - d * tx, my = ny - d * ty, mz = nz - d * tz;
    let ml = Math.hypot(mx, my, mz);
    if (!(ml > 1e-6)) {
      // any perpendicular: the axis the tangent has least of, minus its part along it
      const ax = Math.abs(tx), ay = Math.abs(ty), az = Math.abs(tz);
      const e = ax <= ay && ax <= az ? [1, 0, 0] : ay <= az ? [0, 1, 0] : [0, 0, 1];
      d = e[0] * tx + e[1] * ty + e[2] * tz;
      mx = e[0] - d * tx; my = e[1] - d * ty; mz = e[2] - d * tz;
      ml = Math.hypot(mx, my, mz);
    }
    nx = mx / ml; ny = my / ml; nz = mz / ml;
    // binormal t x n
    const bx = ty * nz - tz * ny, by = tz * nx - tx * nz, bz = tx * ny - ty * nx;
    for (let j = 0; j < radial; j++) {
      const ang = (2 * Math.PI * j) / radial, c = Math.cos(ang), s = Math.sin(ang);
      const ox = c * nx + s * bx, oy = c * ny + s * by, oz = c * nz + s * bz;
      const k = (i * radial + j) * 3;
      positions[k] = p[0] + radius * ox;
      positions[k + 1] = p[1] + radius * oy;
      positions[k + 2] = p[2] + radius * oz;
      normals[k] = ox;
      normals[k + 1] = oy;
      normals[k + 2] = oz;
    }
  }
}

// Axis-aligned extent (in x and y) of everything worth looking at: the crane's reach and
// the scene's boxes. Used to size the water, the grid and the top camera.
// Where the work is, seen from above (base frame x, y [m]): the crane's carrier, the trash
// rack, the gate, the truck's bed and where the task's loads start, with `margin` around
// them; what the Top view frames at its default zoom. Falls back to the crane's reach
// without the boxes.
export function workFrame(machine, scene, margin = 3) {
  const c = machine.carrier;
  const ax = c ? Math.max(c.outrigger_front_m, c.outrigger_rear_m) + 1 : 4;
  const ay = c ? c.outrigger_half_span_m + 1 : 3;
  let min = [-ax, -ay], max = [ax, ay];
  const boxes = [scene.trash_rack, scene.gate, scene.truck_bed].filter(Boolean);
  if (!boxes.length) {
    const reach = machine.crane.telescope_max_m + Math.abs(machine.crane.a1_m);
    return { center: [0, 0], size: [2 * reach, 2 * reach] };
  }
  for (const b of boxes) {
    const r = Math.hypot(b.size_m[0], b.size_m[1]) / 2;
    for (let k = 0; k < 2; k++) {
      min[k] = Math.min(min[k], b.center_m[k] - r);
      max[k] = Math.max(max[k], b.center_m[k] + r);
    }
  }
  // and where the task's loads start: the trainee picks them there
  const taskIds = new Set(scene.task?.loads ?? []);
  for (const l of scene.loads ?? []) {
    if (!taskIds.has(l.id) || !l.position_m) continue;
    const r = (l.length_m ?? 0) / 2 + (l.radius_m ?? Math.max(...(l.size_m ?? [1])) / 2);
    for (let k = 0; k < 2; k++) {
      min[k] = Math.min(min[k], l.position_m[k] - r);
      max[k] = Math.max(max[k], l.position_m[k] + r);
    }
  }
  min = min.map((v) => v - margin);
  max = max.map((v) => v + margin);
  return { center: [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2], size: [max[0] - min[0], max[1] - min[1]] };
}

export function workArea(machine, scene) {
  const reach = machine.crane.telescope_max_m + Math.abs(machine.crane.a1_m);
  let min = [-reach, -reach], max = [reach, reach];
  // the reservoir is left out on purpose: it is the whole lake
  const boxes = [scene.deck, scene.trash_rack, scene.gate, scene.intake_floor, scene.truck_bed,
    ...(scene.intake_walls ?? [])].filter(Boolean);
  for (const b of boxes) {
    const r = Math.hypot(b.size_m[0], b.size_m[1]) / 2;
    for (let k = 0; k < 2; k++) {
      min[k] = Math.min(min[k], b.center_m[k] - r);
      max[k] = Math.max(max[k], b.center_m[k] + r);
    }
  }
  let zMin = scene.water_level_m ?? 0, zMax = machine.crane.d1_m + machine.crane.telescope_max_m;
  for (const b of boxes) {
    zMin = Math.min(zMin, b.center_m[2] - b.size_m[2] / 2);
    zMax = Math.max(zMax, b.center_m[2] + b.size_m[2] / 2);
  }
  return { min, max, zMin, zMax, center: [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2],
    size: [max[0] - min[0], max[1] - min[1]] };
}
