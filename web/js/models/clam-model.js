// The clamshell grapple (thesis Table 2.1: the M.P. McCaffrey cable-driven clamshell), one
// merged, vertex-coloured mesh per part, each in its part's own frame
// (docs/websocket-protocol.md "Parts"; x across the jaws, y along the buckets' width, z up):
// - clam_head (origin A): the head between the two pairs of arms, the pin they turn on, the
//   socket of the holding rope (cable 1) on top and the guide of the closing rope (cable 2);
// - arm_right, arm_left (origin A, link 1 along -z to the hinge B at z = -link1_length_m):
//   two arms, one near each end of the bucket, each a pair of plates with a boss at A and B;
// - shell_right, shell_left (origin C, the pulley's pin): each bucket (link 2) in its closed
//   pose: the hinge B at (link2 sin θc, 0, link2 cos θc), the lip down to (0, 0, -lip):
//   a curved back plate from B round to the cutting edge, two side plates, a top plate along
//   C-B, a thicker cutting edge with teeth whose points are the lip, the lugs on the pin at C,
//   the bosses at B that sit between the arm's plates; the pulley (link 3) on the right one.
//   The mouth, from C down to the lip, faces the other bucket: closed, both meet on x = 0.
// The left parts are the right's mirror image in x; their arms, lugs and teeth sit between
// the right's in y (as the two halves of a real grab interleave), so nothing crosses.
// Every size comes from hello.machine.clam; VISUAL holds the proportions it does not give.

import * as THREE from 'three';
import { mergeGeometries, mergeVertices } from 'three/addons/utils/BufferGeometryUtils.js';
import { KINDS } from '../materials.js';
import { paintVertices } from './merge.js';

const DEG = Math.PI / 180;

export const VISUAL = {
  widthPerLink2: 1.0,             // a hello without bucket_width_m: as wide as link 2 is long
  platePerLink2: 0.016,           // shell plate (18 mm for the 1.14 m bucket)
  backBulgePerLink2: 0.12,        // the back bows out of the chord B-lip by this (the server's
                                  // contact spheres reach 0.12 m round it)
  lipBandPerLip: 0.14,            // the thicker cutting edge along the back's last part
  lipThickPerLink2: 0.04,
  toothPerLip: 0.13,              // teeth from the cutting edge to the lip's point
  teethPerMetre: 5,               // across the width
  toothWidthPerPitch: 0.5,
  pivotBossPerLink2: 0.06,        // lugs on the pin at C
  lugThickPerWidth: 0.05,
  lugAtPerWidth: [0.12, 0.2],     // |y| of the right shell's lugs, the left's
  pulleyPerLink2: 0.14,           // link 3's sheave radius
  pulleyWidthPerWidth: 0.12,
  hingeBossPerLink1: 0.05,        // bosses at A and B
  armAtPerWidth: [0.42, 0.31],    // |y| of the right arms' clevis middle, the left's
  armPlatePerLink1: 0.07,         // an arm plate's width (in x)
  armThickPerLink1: 0.022,
  clevisGapPerWidth: 0.05,        // between the two plates of an arm
  headHalfWidthPerWidth: 0.23,    // the head between the left arms
  headHalfPerLink1: 0.12,         // its half length across the jaws
  headTopPerLink1: 0.42,          // up to the rope socket
  pinPerBoss: 0.45,
  arcSegments: 16,
};

export const COLORS = {
  shell: 0xc8581e, lip: 0x3b4046, tooth: 0x2a2d31, arm: 0x3d4349, boss: 0x7c848c,
  pin: 0xb8bcc0, head: 0x464d55, socket: 0x2b2f33, pulley: 0x9aa2aa,
};
// kinds of surface (materials.js): bare steel where it wears or turns, painted elsewhere
const STEEL = new Set([COLORS.lip, COLORS.tooth, COLORS.boss, COLORS.pin, COLORS.socket, COLORS.pulley]);
const kindOf = (hex) => (STEEL.has(hex) ? 'steel' : 'paint');

// The dimensions the model is drawn from (hello.machine.clam).
export function clamDimensions(clam) {
  const l1 = clam.link1_length_m, l2 = clam.link2_length_m, lip = clam.lip_length_m;
  const tc = clam.theta2_closed_deg * DEG;
  return { l1, l2, lip, tc, width: clam.bucket_width_m ?? l2 * VISUAL.widthPerLink2,
    hinge: [l2 * Math.sin(tc), l2 * Math.cos(tc)] };
}

// clam: hello.machine.clam. Returns {head, armRight, armLeft, shellRight, shellLeft}, each a
// mesh in its part's frame; userData.pieces lists each piece's name, box (local frame) and
// its vertices in the merged geometry (first, count).
export function buildClamModel(clam, material) {
  const d = clamDimensions(clam);
  return {
    head: headMesh(d, material),
    armRight: armMesh(d, 1, material),
    armLeft: armMesh(d, -1, material),
    shellRight: shellMesh(d, 1, material),
    shellLeft: shellMesh(d, -1, material),
  };
}

// ---- pieces, merged into one indexed geometry with a colour per vertex ----------------

function collector() {
  const list = [], boxes = [];
  const add = (geometry, hex, name) => {
    let g = geometry;
    g.deleteAttribute('uv');
    if (!g.index) g = mergeVertices(g);
    paintVertices(g, hex);
    g.computeBoundingBox();
    g.userData.kind = kindOf(hex);
    const count = g.getAttribute('position').count;
    boxes.push({ name, min: g.boundingBox.min.toArray(), max: g.boundingBox.max.toArray(), first: 0, count });
    list.push(g);
  };
  return {
    add,
    // a cylinder along y, radius r, from y0 to y1, its axis through (x, z)
    cylinderY(r, y0, y1, x, z, hex, name, segments = VISUAL.arcSegments) {
      const g = new THREE.CylinderGeometry(r, r, y1 - y0, segments);
      g.translate(x, (y0 + y1) / 2, z);
      add(g, hex, name);
    },
    // a cylinder along z, radius r, from z0 to z1 at (x, y)
    cylinderZ(r, z0, z1, x, y, hex, name, segments = VISUAL.arcSegments) {
      const g = new THREE.CylinderGeometry(r, r, z1 - z0, segments);
      g.rotateX(Math.PI / 2);
      g.translate(x, y, (z0 + z1) / 2);
      add(g, hex, name);
    },
    // a cylinder along x, radius r, from x0 to x1 at (y, z)
    cylinderX(r, x0, x1, y, z, hex, name, segments = 8) {
      const g = new THREE.CylinderGeometry(r, r, x1 - x0, segments);
      g.rotateZ(Math.PI / 2);
      g.translate((x0 + x1) / 2, y, z);
      add(g, hex, name);
    },
    prism(outline, y0, y1, hex, name) {
      add(prism(outline, y0, y1), hex, name);
    },
    // material: one Material (one draw call), or {kind: Material} (models/merge.js
    // modelMaterial at high quality): one group per kind of surface present
    mesh(material, name) {
      const perKind = !material.isMaterial;
      const order = perKind ? list.map((g, i) => i).sort((a, b) =>
        KINDS.indexOf(list[a].userData.kind) - KINDS.indexOf(list[b].userData.kind) || a - b) : list.map((g, i) => i);
      const geometry = mergeGeometries(order.map((i) => list[i]), false);
      // where each piece's vertices ended up in the merged geometry
      let first = 0;
      for (const i of order) {
        boxes[i].first = first;
        first += boxes[i].count;
      }
      const used = [];
      if (perKind) {
        let start = 0;
        for (const i of order) {
          const n = list[i].index.count, kind = list[i].userData.kind;
          if (used.at(-1) !== kind) {
            used.push(kind);
            geometry.addGroup(start, 0, used.length - 1);
          }
          geometry.groups.at(-1).count += n;
          start += n;
        }
        if (used.length === 1) geometry.clearGroups();
      }
      for (const g of list) g.dispose();
      geometry.computeBoundingBox();
      geometry.computeBoundingSphere();
      const mats = perKind ? used.map((k) => material[k] ?? material.paint) : material;
      const mesh = new THREE.Mesh(geometry, perKind && mats.length === 1 ? mats[0] : mats);
      mesh.name = name;
      mesh.userData.pieces = boxes;
      return mesh;
    },
  };
}

// A plate: the outline [[x, z], ...] in the part's x-z plane between y0 and y1. Flat caps;
// round the outline, the sides share normals where it bends by less than 30 degrees (a
// curved plate looks curved), and keep their own at corners.
function prism(outline, y0, y1) {
  let pts = outline.map((p) => [p[0], p[1]]);
  let area = 0;
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i], b = pts[(i + 1) % pts.length];
    area += a[0] * b[1] - b[0] * a[1];
  }
  if (area < 0) pts = pts.reverse();  // counter-clockwise in (x, z)
  const n = pts.length;
  const pos = [], nor = [], idx = [];
  const vertex = (x, y, z, nx, ny, nz) => {
    pos.push(x, y, z);
    nor.push(nx, ny, nz);
    return pos.length / 3 - 1;
  };
  // a triangle wound to face along its vertices' normal
  const tri = (a, b, c) => {
    const p = (i) => [pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]];
    const [pa, pb, pc] = [p(a), p(b), p(c)];
    const u = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]], v = [pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2]];
    const f = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
    const s = f[0] * (nor[3 * a] + nor[3 * b] + nor[3 * c]) + f[1] * (nor[3 * a + 1] + nor[3 * b + 1] + nor[3 * c + 1])
      + f[2] * (nor[3 * a + 2] + nor[3 * b + 2] + nor[3 * c + 2]);
    if (s >= 0) idx.push(a, b, c);
    else idx.push(a, c, b);
  };
  const faces = THREE.ShapeUtils.triangulateShape(pts.map((p) => new THREE.Vector2(p[0], p[1])), []);
  for (const [y, ny] of [[y0, -1], [y1, 1]]) {
    const base = pts.map((p) => vertex(p[0], y, p[1], 0, ny, 0));
    for (const f of faces) tri(base[f[0]], base[f[1]], base[f[2]]);
  }
  // outward normal of edge i (i to i + 1) of a counter-clockwise outline: (dz, -dx)
  const edgeNormal = pts.map((a, i) => {
    const b = pts[(i + 1) % n];
    const dx = b[0] - a[0], dz = b[1] - a[1], l = Math.hypot(dx, dz) || 1;
    return [dz / l, -dx / l];
  });
  const smooth = Math.cos(30 * DEG);
  const cornerNormal = (i, e) => {
    const other = edgeNormal[e === i ? (i + n - 1) % n : (i + 1) % n], own = edgeNormal[e];
    if (own[0] * other[0] + own[1] * other[1] < smooth) return own;
    const s = [own[0] + other[0], own[1] + other[1]], l = Math.hypot(s[0], s[1]);
    return [s[0] / l, s[1] / l];
  };
  for (let e = 0; e < n; e++) {
    const i = e, j = (e + 1) % n;
    const ni = cornerNormal(i, e), nj = cornerNormal(j, e);
    const a = vertex(pts[i][0], y0, pts[i][1], ni[0], 0, ni[1]), b = vertex(pts[j][0], y0, pts[j][1], nj[0], 0, nj[1]);
    const c = vertex(pts[j][0], y1, pts[j][1], nj[0], 0, nj[1]), dd = vertex(pts[i][0], y1, pts[i][1], ni[0], 0, ni[1]);
    tri(a, b, c);
    tri(a, c, dd);
  }
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
  g.setAttribute('normal', new THREE.Float32BufferAttribute(nor, 3));
  g.setIndex(idx);
  return g;
}

// ---- 2-D helpers in the x-z plane ------------------------------------------------------

const add2 = (a, b) => [a[0] + b[0], a[1] + b[1]];
const sub2 = (a, b) => [a[0] - b[0], a[1] - b[1]];
const mul2 = (a, s) => [a[0] * s, a[1] * s];
const unit2 = (a) => mul2(a, 1 / (Math.hypot(a[0], a[1]) || 1));

// A band along the polyline `line` (outer side), `thick` towards `inside` (a point).
function band(line, thick, inside) {
  const inner = line.map((p, i) => {
    const a = line[Math.max(0, i - 1)], b = line[Math.min(line.length - 1, i + 1)];
    const t = unit2(sub2(b, a));
    let nrm = [-t[1], t[0]];
    if ((inside[0] - p[0]) * nrm[0] + (inside[1] - p[1]) * nrm[1] < 0) nrm = mul2(nrm, -1);
    return add2(p, mul2(nrm, thick));
  });
  return [...line, ...inner.reverse()];
}

// ---- the parts ------------------------------------------------------------------------

// The bucket's profile at the closed pose (right half, x >= 0): its hinge B, the lip's point
// T = (0, -lip), the back from B round to T (a quadratic curve bowed out of the chord), the
// cutting edge where the back plate ends and the teeth begin.
export function shellProfile(d) {
  const B = d.hinge, T = [0, -d.lip];
  const chord = sub2(T, B), mid = mul2(add2(B, T), 0.5);
  let out = unit2([chord[1], -chord[0]]);
  if (out[0] < 0) out = mul2(out, -1);  // away from the mouth
  const Q = add2(mid, mul2(out, 2 * VISUAL.backBulgePerLink2 * d.l2));
  const at = (t) => add2(add2(mul2(B, (1 - t) * (1 - t)), mul2(Q, 2 * t * (1 - t))), mul2(T, t * t));
  // the curve's parameter where the teeth begin and where the cutting edge does
  const length = (t0, t1) => {
    let s = 0;
    for (let k = 0; k < 32; k++) s += Math.hypot(...sub2(at(t0 + ((k + 1) * (t1 - t0)) / 32), at(t0 + (k * (t1 - t0)) / 32)));
    return s;
  };
  const back = (len) => {
    let lo = 0, hi = 1;
    for (let k = 0; k < 40; k++) {
      const m = (lo + hi) / 2;
      if (length(m, 1) > len) lo = m;
      else hi = m;
    }
    return lo;
  };
  const tTeeth = back(VISUAL.toothPerLip * d.lip);
  const tEdge = back((VISUAL.toothPerLip + VISUAL.lipBandPerLip) * d.lip);
  const samples = (t0, t1, k) => Array.from({ length: k + 1 }, (_, i) => at(t0 + ((t1 - t0) * i) / k));
  return { B, T, Q, at, tTeeth, tEdge, samples };
}

function shellMesh(d, sx, material) {
  const p = collector();
  const W = d.width, half = W / 2;
  const t = VISUAL.platePerLink2 * d.l2;
  const prof = shellProfile(d);
  const X = (pt) => [sx * pt[0], pt[1]];                // mirrored for the left
  const Xs = (pts) => pts.map(X);
  const inside = [prof.B[0] / 3, (prof.B[1] + prof.T[1]) / 3];  // the triangle C, B, T's centroid
  const teeth = prof.at(prof.tTeeth), edge = prof.tEdge;
  // side plates: C, B, the back down to the teeth, across to the mouth, up the mouth to C
  const side = [[0, 0], ...prof.samples(0, prof.tTeeth, 14), [0, teeth[1]]];
  p.prism(Xs(side), half - t, half, COLORS.shell, 'side plate');
  p.prism(Xs(side), -half, -half + t, COLORS.shell, 'side plate');
  // the curved back plate from B to the cutting edge, and the cutting edge to the teeth
  p.prism(Xs(band(prof.samples(0, edge, 14), t, inside)), -half, half, COLORS.shell, 'back plate');
  const lipThick = VISUAL.lipThickPerLink2 * d.l2;
  p.prism(Xs(band(prof.samples(edge, prof.tTeeth, 3), lipThick, inside)), -half, half, COLORS.lip, 'cutting edge');
  // the top plate along C-B, starting clear of the pulley and the other bucket's lugs
  const rc = VISUAL.pivotBossPerLink2 * d.l2, rp = VISUAL.pulleyPerLink2 * d.l2;
  const cb = unit2(prof.B);
  let nd = [cb[1], -cb[0]];                           // across C-B, into the bucket
  if (nd[0] * inside[0] + nd[1] * inside[1] < 0) nd = mul2(nd, -1);
  const start = mul2(cb, Math.max(rc * 1.6, rp * 1.25));
  p.prism(Xs(band([start, prof.B], t, inside)), -half, half, COLORS.shell, 'top plate');
  // teeth: from the cutting edge (its full thickness) to their points on the lip's point;
  // the left bucket's sit between the right's
  const tip = prof.T;
  const tang = unit2(sub2(tip, teeth));
  let nrm = [-tang[1], tang[0]];
  if ((inside[0] - teeth[0]) * nrm[0] + (inside[1] - teeth[1]) * nrm[1] < 0) nrm = mul2(nrm, -1);
  const tooth = [teeth, add2(teeth, mul2(nrm, lipThick)), tip];
  const count = Math.max(2, Math.round(W * VISUAL.teethPerMetre));
  const pitch = W / count, tw = pitch * VISUAL.toothWidthPerPitch;
  const phase = sx > 0 ? 0.5 : 1;
  for (let k = 0; k < count; k++) {
    const y = -half + pitch * (k + phase);
    if (y + tw / 2 > half) continue;
    p.prism(Xs(tooth), y - tw / 2, y + tw / 2, COLORS.tooth, 'tooth');
  }
  // lugs on the pin at C, this half's |y|: a boss, and a web from it to the top plate
  const lugT = VISUAL.lugThickPerWidth * W;
  const lugY = VISUAL.lugAtPerWidth[sx > 0 ? 0 : 1] * W;
  const reachWeb = Math.hypot(...start) + rc;
  const web = [mul2(nd, -0.5 * rc), mul2(cb, reachWeb), add2(mul2(cb, reachWeb), mul2(nd, 1.2 * rc)), mul2(nd, rc)];
  for (const s of [1, -1]) {
    p.cylinderY(rc, s * lugY - lugT / 2, s * lugY + lugT / 2, 0, 0, COLORS.boss, 'pivot lug');
    p.prism(Xs(web), s * lugY - lugT / 2, s * lugY + lugT / 2, COLORS.shell, 'lug web');
  }
  // bosses at B between the plates of this half's arms
  const rb = VISUAL.hingeBossPerLink1 * d.l1;
  const gap = VISUAL.clevisGapPerWidth * W;
  const armY = VISUAL.armAtPerWidth[sx > 0 ? 0 : 1] * W;
  for (const s of [1, -1]) {
    p.cylinderY(rb, s * armY - gap / 2, s * armY + gap / 2, sx * prof.B[0], prof.B[1], COLORS.boss, 'hinge boss');
  }
  // the pulley (link 3) and its pin, on the right bucket's mesh (it turns about its own axle)
  if (sx > 0) {
    const pw = VISUAL.pulleyWidthPerWidth * W;
    p.cylinderY(rp, -pw / 2, pw / 2, 0, 0, COLORS.pulley, 'pulley', 24);
    p.cylinderY(rp * 1.08, -pw / 2 - 0.01 * W, -pw / 2, 0, 0, COLORS.boss, 'pulley', 24);
    p.cylinderY(rp * 1.08, pw / 2, pw / 2 + 0.01 * W, 0, 0, COLORS.boss, 'pulley', 24);
    const reach = VISUAL.lugAtPerWidth[1] * W + lugT;
    p.cylinderY(rc * VISUAL.pinPerBoss, -reach, reach, 0, 0, COLORS.pin, 'pin', 12);
  }
  const mesh = p.mesh(material, 'bucket');
  mesh.userData.hinge = [sx * prof.B[0], 0, prof.B[1]];
  mesh.userData.lip = [0, 0, -d.lip];
  mesh.userData.width = W;
  return mesh;
}

// link 1: two arms (y = +-armY), each a pair of plates from A to B with bosses at both ends
function armMesh(d, sx, material) {
  const p = collector();
  const W = d.width;
  const rb = VISUAL.hingeBossPerLink1 * d.l1;
  const wa = VISUAL.armPlatePerLink1 * d.l1, ta = VISUAL.armThickPerLink1 * d.l1;
  const gap = VISUAL.clevisGapPerWidth * W;
  const armY = VISUAL.armAtPerWidth[sx > 0 ? 0 : 1] * W;
  // a plate tapering from the boss at A to the one at B, rounded ends by the bosses
  const plate = [[-wa / 2, 0], [-wa / 2 * 1.2, -d.l1], [wa / 2 * 1.2, -d.l1], [wa / 2, 0]];
  for (const s of [1, -1]) {
    for (const y of [s * armY - gap / 2 - ta, s * armY + gap / 2]) {
      p.prism(plate.map(([x, z]) => [sx * x, z]), y, y + ta, COLORS.arm, 'arm plate');
      p.cylinderY(rb, y, y + ta, 0, 0, COLORS.boss, 'boss A');
      p.cylinderY(rb, y, y + ta, 0, -d.l1, COLORS.boss, 'boss B');
    }
    // the pin at B through the plates and the bucket's boss between them
    p.cylinderY(rb * VISUAL.pinPerBoss, s * armY - gap / 2 - ta * 1.6, s * armY + gap / 2 + ta * 1.6, 0, -d.l1, COLORS.pin, 'pin B', 12);
  }
  const mesh = p.mesh(material, 'arm');
  mesh.userData.pins = [[0, 0, 0], [0, 0, -d.l1]];
  return mesh;
}

// The head at A: its body between the left arms, the pin through every arm, the holding
// rope's socket on top and two rollers guiding the closing rope down through it.
function headMesh(d, material) {
  const p = collector();
  const W = d.width;
  const hy = VISUAL.headHalfWidthPerWidth * W, hx = VISUAL.headHalfPerLink1 * d.l1;
  const top = VISUAL.headTopPerLink1 * d.l1, rb = VISUAL.hingeBossPerLink1 * d.l1;
  // cheek plates: a house-shaped outline round the pin, narrowing to the socket
  const cheek = [[-hx, -rb * 1.3], [hx, -rb * 1.3], [hx, top * 0.55], [hx * 0.35, top], [-hx * 0.35, top], [-hx, top * 0.55]];
  const ct = VISUAL.armThickPerLink1 * d.l1;
  for (const s of [1, -1]) p.prism(cheek, s > 0 ? hy - ct : -hy, s > 0 ? hy : -hy + ct, COLORS.head, 'cheek');
  // the body between them, open where the closing rope passes (at y = 0)
  const gapY = hy * 0.35;
  for (const s of [1, -1]) p.prism([[-hx * 0.9, -rb], [hx * 0.9, -rb], [hx * 0.9, top * 0.5], [-hx * 0.9, top * 0.5]],
    s > 0 ? gapY : -hy + ct, s > 0 ? hy - ct : -gapY, COLORS.head, 'body');
  p.prism([[-hx * 0.9, top * 0.5], [hx * 0.9, top * 0.5], [hx * 0.35, top * 0.95], [-hx * 0.35, top * 0.95]],
    -hy + ct, hy - ct, COLORS.head, 'body');
  // the pin at A through all four arms' plates
  const reach = VISUAL.armAtPerWidth[0] * W + VISUAL.clevisGapPerWidth * W / 2 + VISUAL.armThickPerLink1 * d.l1 * 1.6;
  p.cylinderY(rb * VISUAL.pinPerBoss, -reach, reach, 0, 0, COLORS.pin, 'pin A', 12);
  // the holding rope's socket, a cone-ended cylinder on top, and the guide rollers
  const rs = rb * 0.7;
  p.cylinderZ(rs, top * 0.9, top + rs * 3, 0, 0, COLORS.socket, 'socket', 12);
  const g = new THREE.CylinderGeometry(rs * 0.4, rs, rs * 1.5, 12);
  g.rotateX(Math.PI / 2);
  g.translate(0, 0, top + rs * 3.75);
  p.add(g, COLORS.socket, 'socket');
  for (const s of [1, -1]) p.cylinderX(rb * 0.55, -hx * 0.8, hx * 0.8, s * gapY * 0.55, top * 0.55, COLORS.pin, 'guide roller');
  const mesh = p.mesh(material, 'clam head model');
  mesh.userData.top = top + rs * 4.5;
  return mesh;
}
