// The ropes' path along the boom (docs/model.md, "Rope reeving"): each rope runs from its
// drum on the superstructure over the foot sheave on the boom's base section, along the
// boom to the tip sheave, and hangs from there to the clam. The hello gives the drum's,
// the foot sheave's and the tip sheave's centres as points fixed in the parts that carry
// them (hello.machine.cables[i].reeving: [{part, at}], `at` in that part's frame); a frame's
// part poses place them. The page computes no kinematics: it only puts the points where the
// poses say and rounds the corners over the sheaves.
// Plain arrays, no three.js, so the node tests run it.

import { posePoint } from './geometry.js';

// Sizes the hello does not give, for the look only (the physics leaves the sheaves' radii
// out: docs/model.md): the foot sheave's radius per its drum's, where the two ropes' grooves
// are either side of the boom's middle (per the fly's width: the tip sheaves' places), and
// how many points a drawn rope takes round each sheave.
export const SHEAVES = { footPerDrum: 0.7, groovePerFlyWidth: 0.35, arcPoints: 4 };

function sub(a, b) { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }
function dot(a, b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
function unit(a) {
  const n = Math.hypot(a[0], a[1], a[2]);
  return n > 1e-9 ? [a[0] / n, a[1] / n, a[2] / n] : null;
}
// the part of v perpendicular to the unit vector d, made unit (null when v is along d)
function across(v, d) {
  const k = dot(v, d);
  return unit([v[0] - k * d[0], v[1] - k * d[1], v[2] - k * d[2]]);
}

// Each cable's reeving from hello.machine: [{part, at: [x, y, z]}, ...] (drum first, tip
// sheave last), or null for a cable without one (an older server: only the hanging part
// is drawn). A reeving that names a part hello.parts lacks, or is malformed, is null too.
export function reevings(machine, parts) {
  const names = new Set(Array.isArray(parts) ? parts : []);
  return (machine?.cables ?? []).map((c) => {
    const r = c?.reeving;
    if (!Array.isArray(r) || r.length < 2) return null;
    const ok = r.every((a) => a && names.has(a.part) && Array.isArray(a.at) && a.at.length === 3
      && a.at.every(Number.isFinite));
    return ok ? r.map((a) => ({ part: a.part, at: [...a.at] })) : null;
  });
}

// The anchors of each rope in the base frame at these poses: [[drum, foot, tip], ...] (null
// where a rope has no reeving). poses: display.parts (or motion.js's sample of them);
// index: {name: i} of hello.parts (geometry.partIndex).
export function ropeAnchors(reeving, poses, index) {
  return reeving.map((r) => (r ? r.map((a) => posePoint(poses[index[a.part]], a.at)) : null));
}

// How many points ropeRoute gives for a rope of n anchors with arcPoints per sheave.
export function routeLength(nAnchors, arcPoints) {
  return 1 + (nAnchors - 1) * arcPoints;
}

// The drawn rope over its anchors (base frame): it leaves the drum (radius drumRadius) on
// the side it runs over the next sheave, passes over the top of each sheave along the boom
// (sheaveRadius) and round the tip sheave (tipRadius) on the outside of its turn, each in
// arcPoints points from where it comes on to where it goes off, and leaves the tip sheave
// towards `end` (the clam's attachment). The last point is where the hanging part starts.
// The tangent points are taken from the centre lines (exact between sheaves of equal
// radius, a degree or two off for the drum and the hanging part, which is not seen).
export function ropeRoute(anchors, end, { drumRadius = 0, sheaveRadius = 0, tipRadius = sheaveRadius,
  arcPoints = 4 } = {}) {
  const n = anchors.length;
  const points = [];
  let firstSide = null;
  for (let i = 1; i < n; i++) {
    const p = anchors[i], next = i < n - 1 ? anchors[i + 1] : end;
    const r = i < n - 1 ? sheaveRadius : tipRadius;
    const din = unit(sub(p, anchors[i - 1])) ?? [1, 0, 0];
    const dout = unit(sub(next, p)) ?? [0, 0, -1];
    // a sheave along the boom: over its top (the rope bears on it from above at every boom
    // angle); the tip sheave: the centre lies inside the turn, so the rope comes on opposite
    // to where it turns to and goes off on the side it came from
    const up = [0, 0, 1];
    const last = i === n - 1;
    const inSide = (last ? across(sub(din, dout), din) : null) ?? across(up, din) ?? up;
    const outSide = (last ? across(din, dout) : across(up, dout)) ?? inSide;
    if (i === 1) firstSide = inSide;
    for (let k = 0; k < arcPoints; k++) {
      const m = slerp(inSide, outSide, arcPoints > 1 ? k / (arcPoints - 1) : 1);
      points.push([p[0] + r * m[0], p[1] + r * m[1], p[2] + r * m[2]]);
    }
  }
  // the drum: leaves on the same side of the first leg as the first sheave takes it
  const d = anchors[0], s = firstSide ?? [0, 0, 1];
  points.unshift([d[0] + drumRadius * s[0], d[1] + drumRadius * s[1], d[2] + drumRadius * s[2]]);
  return points;
}

// unit vectors a to b by the shorter arc (t in 0..1)
function slerp(a, b, t) {
  const c = Math.max(-1, Math.min(1, dot(a, b)));
  const angle = Math.acos(c);
  if (angle < 1e-6) return a;
  if (Math.PI - angle < 1e-6) {
    // opposite: turn through any perpendicular (not met by a rope over a sheave)
    const m = across([0, 0, 1], a) ?? across([1, 0, 0], a);
    const phi = t * Math.PI;
    return a.map((x, k) => Math.cos(phi) * x + Math.sin(phi) * m[k]);
  }
  const s = Math.sin(angle), wa = Math.sin((1 - t) * angle) / s, wb = Math.sin(t * angle) / s;
  return [wa * a[0] + wb * b[0], wa * a[1] + wb * b[1], wa * a[2] + wb * b[2]];
}

// Each rope's anchors moved across the boom by offsets[i] (a length along `acrossAxis`, the
// fly's y): the two ropes run side by side in their grooves instead of one inside the other.
export function spreadAnchors(anchors, acrossAxis, offsets) {
  return anchors.map((pts, i) => (pts ? pts.map((p) => p.map((x, k) => x + offsets[i] * acrossAxis[k])) : null));
}
