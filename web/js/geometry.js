// Where things are, from the hello's machine and a display frame: D-H frames of the crane
// (Table 2.7, as server/core/crane.cc), the clam's kite A-B-C (section 2.1) and the cable
// curves. Base frame: origin on the swing axis at the swing base, z up, metres.
// Plain arrays, no three.js, so the node tests run it.

export const DEG = Math.PI / 180;

// Row-major 4x4 (the order THREE.Matrix4.set takes).
export function dh(theta, d, a, alpha) {
  const ct = Math.cos(theta), st = Math.sin(theta), ca = Math.cos(alpha), sa = Math.sin(alpha);
  return [ct, -st * ca, st * sa, a * ct,
    st, ct * ca, -ct * sa, a * st,
    0, sa, ca, d,
    0, 0, 0, 1];
}

export function mul(A, B) {
  const C = new Array(16).fill(0);
  for (let r = 0; r < 4; r++) {
    for (let c = 0; c < 4; c++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += A[r * 4 + k] * B[k * 4 + c];
      C[r * 4 + c] = s;
    }
  }
  return C;
}

export function transformPoint(T, p) {
  return [0, 1, 2].map((r) => T[r * 4] * p[0] + T[r * 4 + 1] * p[1] + T[r * 4 + 2] * p[2] + T[r * 4 + 3]);
}

// Frames 1..3 in the base frame. Table 2.7: (theta1, d1, -a1, 90), (theta2, 0, 0, 90),
// (0, d3, 0, 0); the D-H boom angle is the display's boom angle + 90 deg (90 = level).
export function craneFrames(crane, swingDeg, boomDeg, telescopeM) {
  const t1 = dh(swingDeg * DEG, crane.d1_m, -crane.a1_m, Math.PI / 2);
  const t2 = mul(t1, dh((boomDeg + 90) * DEG, 0, 0, Math.PI / 2));
  const t3 = mul(t2, dh(0, telescopeM, 0, 0));
  return [t1, t2, t3];
}

// The machine tipping (display.tilt_axis, tilt_deg): a right-hand rotation by `deg` about
// the unit `direction` through `point_m`, as a row-major 4x4 (Rodrigues' formula); the
// identity when the machine stands on its pads (axis null).
export function tiltMatrix(axis, deg) {
  if (!axis || !Number.isFinite(deg) || deg === 0) return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const [x, y, z] = axis.direction, p = axis.point_m;
  const c = Math.cos(deg * DEG), s = Math.sin(deg * DEG), t = 1 - c;
  const R = [t * x * x + c, t * x * y - s * z, t * x * z + s * y,
    t * x * y + s * z, t * y * y + c, t * y * z - s * x,
    t * x * z - s * y, t * y * z + s * x, t * z * z + c];
  // the line stays where it is: translation p - R p
  const o = [0, 1, 2].map((r) => p[r] - (R[r * 3] * p[0] + R[r * 3 + 1] * p[1] + R[r * 3 + 2] * p[2]));
  return [R[0], R[1], R[2], o[0], R[3], R[4], R[5], o[1], R[6], R[7], R[8], o[2], 0, 0, 0, 1];
}

// Closed form of frame 3's origin (server/core/crane.cc tip_position).
export function tipPosition(crane, swingDeg, boomDeg, telescopeM) {
  const b = boomDeg * DEG, s = swingDeg * DEG;
  const rho = telescopeM * Math.cos(b) - crane.a1_m;
  return [rho * Math.cos(s), rho * Math.sin(s), crane.d1_m + telescopeM * Math.sin(b)];
}

// Table 4.1's opening angle is 2 (theta2_closed - theta2) (server/core/machine.cc).
export function theta2FromOpening(clam, openingDeg) {
  return clam.theta2_closed_deg - openingDeg / 2;
}

// The kite in the clam's plane, A at the origin, u towards the right hinge B, w up.
// l1 sin th1 = l2 sin th2 (section 2.1); the lip leaves C at phi = th_closed - th2 from
// the downward vertical, so the lips meet on the axis when closed (jaw gap 2 L sin phi).
export function clamShape(clam, theta2Deg) {
  const l1 = clam.link1_length_m, l2 = clam.link2_length_m;
  const th2 = theta2Deg * DEG;
  const th1 = Math.asin(Math.max(-1, Math.min(1, (l2 * Math.sin(th2)) / l1)));
  const b = [l1 * Math.sin(th1), -l1 * Math.cos(th1)];
  const c = [0, b[1] - l2 * Math.cos(th2)];
  const phi = (clam.theta2_closed_deg - theta2Deg) * DEG;
  const lip = [c[0] + clam.lip_length_m * Math.sin(phi), c[1] - clam.lip_length_m * Math.cos(phi)];
  return { theta1: th1, theta2: th2, phi, b, c, lip, span: -c[1] };
}

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

// The clam's axes in the base frame from clam_orientation (clam frame: x across the jaws,
// the way they open; z up the clam's axis, from C towards A): u = R x, w = R z.
export function clamAxesFromQuat(q) {
  return { u: rotateByQuat(q, [1, 0, 0]), w: rotateByQuat(q, [0, 0, 1]) };
}

// Everything the drawing needs for one frame: tip, A, C, the clam's axes and shape.
// The clam hangs along its ropes (thesis 3.4.2): its axes come from clam_orientation when
// the frame has it, else from the points A, B, C; without those, from Table 4.1 alone,
// hanging straight down, as a 2001 receiver would draw it.
export function pose(machine, frame) {
  const [swing, boom, tele, clamToTip, opening] = frame.display;
  const crane = machine.crane;
  const tip = frame.tip_m ?? tipPosition(crane, swing, boom, tele);
  const theta2 = frame.theta2_deg ?? theta2FromOpening(machine.clam, opening);
  const shape = clamShape(machine.clam, theta2);
  const heading = [Math.cos(swing * DEG), Math.sin(swing * DEG), 0];
  const a = frame.point_a_m ?? [tip[0], tip[1], tip[2] - clamToTip];
  const c = frame.point_c_m ?? add(a, [0, 0, -shape.span]);
  let u, w;
  if (frame.clam_orientation) {
    ({ u, w } = clamAxesFromQuat(frame.clam_orientation));
  } else {
    // w from C up to A, u towards B (or the boom's heading), made perpendicular
    w = unit(sub(a, c), [0, 0, 1]);
    const towardsB = frame.point_b_m ? sub(frame.point_b_m, a) : heading;
    u = unit(sub(towardsB, scale(w, dot(towardsB, w))), heading);
  }
  return { swing, boom, tele, tip, a, c, u, w, heading, theta2, shape };
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

// Axis-aligned extent (in x and y) of everything worth looking at: the crane's reach and
// the scene's boxes. Used to size the water, the grid and the top camera.
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
