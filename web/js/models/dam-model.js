// The dam intake's solids as merged meshes in the base frame (z up), from hello.scene's
// boxes: concrete piers with a rounded upstream nose, the deck with a kerb along its
// water-side edge, the gate with its stiffeners, and a truck whose bed is
// hello.scene.truck_bed with a cab and wheels in front of it, outside the bed, on the deck.
// The trash rack's bars stay in scene.js (one instanced mesh). Sizes the scene does not
// give are VISUAL choices; they change nothing but the look (nor what the clam hits).

import { pieces, surfaceKinds } from './merge.js';
import { DEG } from '../geometry.js';

export const VISUAL = {
  wheelRadius_m: 0.5,
  tyreWidth_m: 0.4,
  wheelSegments: 12,
  truckCabLength_m: 2.0,
  truckCabGap_m: 0.2,        // between the bed's front and the cab's back
  truckCabHeightPerBed: 2.4, // the cab's top this many bed heights above the wheels' top
  bedWall_m: 0.1,
  gateRibs: 4,               // horizontal stiffeners on the gate's upstream face
  kerb_m: [0.4, 0.3],        // the deck's water-side kerb: width, height
  noseSegments: 12,
};

export const COLORS = {
  concrete: 0xa8a49c, pierNose: 0x9c988f, kerb: 0xbdb8ae, gate: 0xc9a227, gateRib: 0x9a7c1c,
  bed: 0x9b3b2a, truckCab: 0x2f5d8a, glass: 0x24323f, tyre: 0x1e1e1e, rim: 0xd2d4d6, hub: 0x9aa0a6, chassis: 0x2a2a2a,
};
// kinds of surface (materials.js) other than painted steel
const SURFACE = surfaceKinds(COLORS, { concrete: 'concrete', pierNose: 'concrete', kerb: 'concrete', glass: 'glass',
  tyre: 'rubber', hub: 'steel' });

// a piece list placed and turned like the scene box b (its centre, yaw about z)
function placed(mesh, b) {
  mesh.position.set(...b.center_m);
  mesh.rotation.z = (b.yaw_deg ?? 0) * DEG;
  return mesh;
}

// A pier: the wall box, a half-round nose on its end towards `upstream` (+1: +x local).
export function pierMesh(wall, material, upstream = 1) {
  const p = pieces(SURFACE);
  const [sx, sy, sz] = wall.size_m;
  p.box([sx, sy, sz], COLORS.concrete, [0, 0, 0]);
  const alongX = sx >= sy;
  const r = (alongX ? sy : sx) / 2;
  const at = alongX ? [upstream * sx / 2, 0, 0] : [0, upstream * sy / 2, 0];
  p.cylinder(r, sz, 'z', COLORS.pierNose, at, VISUAL.noseSegments);
  return placed(p.mesh(material), wall);
}

// The deck, with a kerb along its +x edge (towards the water) except where the intake bay is.
export function deckMesh(deck, material, bay = null) {
  const p = pieces(SURFACE);
  const [sx, sy, sz] = deck.size_m;
  p.box([sx, sy, sz], COLORS.concrete, [0, 0, 0]);
  const [kw, kh] = VISUAL.kerb_m;
  const x = sx / 2 - kw / 2, z = sz / 2 + kh / 2;
  // bay: [yMin, yMax] in the deck's frame, left open for the clam
  const runs = bay ? [[-sy / 2, bay[0]], [bay[1], sy / 2]] : [[-sy / 2, sy / 2]];
  for (const [a, b] of runs) if (b > a) p.box([kw, b - a, kh], COLORS.kerb, [x, (a + b) / 2, z]);
  return placed(p.mesh(material), deck);
}

export function gateMesh(gate, material) {
  const p = pieces(SURFACE);
  const [sx, sy, sz] = gate.size_m;
  p.box([sx, sy, sz], COLORS.gate, [0, 0, 0]);
  const n = VISUAL.gateRibs, t = Math.min(0.15, sz / (4 * n));
  const along = sx >= sy;
  for (let i = 0; i < n; i++) {
    const z = -sz / 2 + (sz * (i + 0.5)) / n;
    p.box(along ? [sx, sy + 2 * t, t] : [sx + 2 * t, sy, t], COLORS.gateRib, [0, 0, z]);
  }
  return placed(p.mesh(material), gate);
}

// The truck in the bed's frame: the bed box (an open tray), a chassis under it, a cab in
// front of it (+x, or +y when the bed is longer in y) and wheels down to `ground` (base z).
export function truckMesh(bed, ground, material) {
  const p = pieces(SURFACE);
  const [sx, sy, sz] = bed.size_m;
  const alongX = sx >= sy;
  const L = alongX ? sx : sy, W = alongX ? sy : sx;
  // local (u along the truck, v across, z) -> the bed's frame
  const pt = (u, v, z) => (alongX ? [u, v, z] : [v, u, z]);
  const span = (a, b, hex) => {
    const [x0, y0, z0] = pt(...a), [x1, y1, z1] = pt(...b);
    p.span([Math.min(x0, x1), Math.min(y0, y1), z0], [Math.max(x0, x1), Math.max(y0, y1), z1], hex);
  };
  const bottom = -sz / 2, top = sz / 2;
  const g = ground - bed.center_m[2];                 // the deck in the bed's frame
  const t = VISUAL.bedWall_m;
  // the tray: a floor and four walls inside the bed's box
  span([-L / 2, -W / 2, bottom], [L / 2, W / 2, bottom + t * 1.5], COLORS.bed);
  span([-L / 2, -W / 2, bottom], [L / 2, -W / 2 + t, top], COLORS.bed);
  span([-L / 2, W / 2 - t, bottom], [L / 2, W / 2, top], COLORS.bed);
  span([-L / 2, -W / 2, bottom], [-L / 2 + t, W / 2, top], COLORS.bed);
  span([L / 2 - t, -W / 2, bottom], [L / 2, W / 2, top + 0.3], COLORS.bed);  // headboard
  // wheels: the deck is under them, however high the bed sits
  const r = Math.max(0.2, Math.min(VISUAL.wheelRadius_m, (bottom - g) * 0.9));
  const cabLen = VISUAL.truckCabLength_m, gap = VISUAL.truckCabGap_m;
  const cabU = [L / 2 + gap, L / 2 + gap + cabLen];
  const chassisTop = Math.min(bottom, g + 2 * r + 0.1);
  span([-L / 2 + 0.3, -W * 0.25, g + r * 0.8], [cabU[1], W * 0.25, chassisTop], COLORS.chassis);
  const tw = VISUAL.tyreWidth_m, wv = W / 2 - tw / 2;
  const axles = [-L / 2 + r + 0.4, -L / 2 + 3 * r + 0.5, (cabU[0] + cabU[1]) / 2];
  // each wheel a tyre, a painted rim and the hub's cap standing proud of its faces
  const axis = alongX ? 'y' : 'x';
  for (const u of axles) {
    for (const v of [wv, -wv]) {
      const [x, y] = pt(u, v, 0), at = [x, y, g + r];
      p.cylinder(r, tw, axis, COLORS.tyre, at, VISUAL.wheelSegments);
      p.cylinder(r * 0.62, tw + 0.03, axis, COLORS.rim, at, VISUAL.wheelSegments);
      p.cylinder(r * 0.22, tw + 0.09, axis, COLORS.hub, at, 8);
    }
  }
  // the cab: from over its wheels up, a windscreen and side windows
  const cabBottom = g + 2 * r + 0.05, cabTop = cabBottom + (top - bottom) * VISUAL.truckCabHeightPerBed;
  span([cabU[0], -W / 2, cabBottom], [cabU[1], W / 2, cabTop], COLORS.truckCab);
  const winZ = [cabTop - (cabTop - cabBottom) * 0.45, cabTop - 0.12];
  span([cabU[1] - 0.02, -W / 2 + 0.15, winZ[0]], [cabU[1] + 0.02, W / 2 - 0.15, winZ[1]], COLORS.glass);
  for (const v of [W / 2, -W / 2]) span([cabU[0] + 0.3, v - 0.02, winZ[0]], [cabU[1] - 0.3, v + 0.02, winZ[1]], COLORS.glass);
  const mesh = placed(p.mesh(material), bed);
  mesh.userData = { wheelRadius: r, cab: { u: cabU, bottom: cabBottom, top: cabTop }, alongX };
  return mesh;
}
