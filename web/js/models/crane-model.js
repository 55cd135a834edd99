// The truck crane, one merged mesh per part, each in its part's own frame
// (docs/websocket-protocol.md "Parts"):
// - carrier (base frame, z up, x forward): chassis, wheels on the deck, a low driver's cab
//   ahead of the front wheels, the slew ring, and the outriggers on their pads
//   (hello.machine.carrier);
// - superstructure (D-H frame 1: origin at the boom pivot, x forward, y up, z to the right;
//   the swing axis at x = a1): the turntable deck, the engine house, the counterweight where
//   the dynamics put it (hello.machine.crane.counterweight), the operator's cab at the front right around
//   the eye (scene.js eye()), the boom foot, the ropes' winch drums where the hello reeves
//   them (machine.cables[i].reeving);
// - boom_base (frame 2: along z from the pivot, x on the boom's upper side): the base section
//   and the ropes' foot sheave;
// - fly (frame 3: origin at the tip sheave): the fly section ending at the origin, so it
//   lies inside the base section when retracted, and the two tip sheaves (axle along y).
// Sizes the model does not give are VISUAL choices; they change nothing but the look.

import { pieces, surfaceKinds } from './merge.js';
import { SHEAVES } from '../rope-path.js';

export const VISUAL = {
  wheelRadius_m: 0.45,            // a 14.00R20-class crane tyre is ~1.2 m across; smaller to fit the low carrier
  tyreWidth_m: 0.35,
  wheelSegments: 12,
  axleX_m: [3.7, 3.2, -3.2, -3.7],// two front and two rear axles, outside the outriggers
  chassisDepth_m: 0.3,
  railHalfWidth_m: 0.5,           // the frame rails between the wheels
  carrierLengthPerPadSpan: 1.6,   // the carrier is longer than its pads are apart
  // the driver's cab, left side, low ahead of the front wheels (floor and roof above the
  // ground), outside the circle the superstructure's low pieces sweep
  driverCab_m: { length: 1.1, y: [0.1, 1.25], z: [0.3, 1.3], gapToTyres: 0.1 },
  // the driver's cab keeps this far out of the circle the superstructure's pieces lower than
  // its roof sweep
  cabClearance_m: 0.2,
  beamPerWidth: 0.12,             // outrigger beam's square section per carrier width
  padSide_m: 0.6,
  padThick_m: 0.08,
  houseWidth_m: 1.2,              // engine house on the left of the boom
  opCab: { length_m: 1.5, width_m: 1.1, sillBelowEye_m: 0.5, roofAboveEye_m: 0.55, pillar_m: 0.06 },
  footPlate_m: 0.1,               // boom foot brackets' thickness
  pinRadius_m: 0.1,
  headCollar_m: 0.4,              // boom base's head, a little wider than the section
  sheaveWidth_m: 0.08,
  sheaveSegments: 16,
  drumLengthPerRadius: 2.2,       // a winch drum's length per its radius (the hello gives the radius)
};

export const COLORS = {
  carrier: 0x3d4a57, tyre: 0x1e1e1e, rim: 0xc4c7c9, hub: 0x9aa0a6, steel: 0x55606a, pad: 0x444a50,
  driverCab: 0xd8d8d0, glass: 0x24323f, superstructure: 0xe0b020, counterweight: 0x3a3f44,
  opCab: 0xe8c44a, pillar: 0x2b2f33, boom: 0xe8c02a, fly: 0xd9d4c4, sheave: 0x6f777f,
  drum: 0x4f565d, woundRope: 0x2a2c2e,
};
// kinds of surface (materials.js) other than painted steel
const SURFACE = surfaceKinds(COLORS, { tyre: 'rubber', hub: 'steel', steel: 'steel', pad: 'steel', glass: 'glass', sheave: 'steel',
  drum: 'steel', woundRope: 'steel' });

// machine: hello.machine; ground: the deck's top [m, base z]; carrierTop: the swing base's
// plane (the cab's floor). Returns { carrier, superstructure, boomBase, fly } meshes.
export function buildCrane(machine, { ground, carrierTop, material, eyeLocal }) {
  const crane = machine.crane;
  // the driver's cab outside the circle swept by every superstructure piece lower than its
  // roof (the deck, the engine house, the counterweight, ...)
  const over = ground + VISUAL.driverCab_m.z[1] + VISUAL.cabClearance_m;
  const superstructure = superstructureMesh(crane, carrierTop, material, eyeLocal, machine.cables);
  const low = superstructure.userData.sweep.filter((s) => s.bottom < over - 1e-4);
  const cabFrom = Math.max(0, ...low.map((s) => s.reach)) + VISUAL.cabClearance_m;
  return {
    carrier: carrierMesh(machine.carrier, crane, ground, carrierTop, material, cabFrom),
    superstructure,
    boomBase: boomBaseMesh(crane.links.boom_base, material, machine.cables, crane.links.telescopic),
    fly: flyMesh(crane.links.telescopic, machine.cables, material),
  };
}

// a wheel, its axle along `axis`: the tyre, a painted rim and the hub's cap standing proud
// of its faces, so that from the side it reads as a wheel
function wheel(p, r, width, axis, at, segments) {
  p.cylinder(r, width, axis, COLORS.tyre, at, segments);
  p.cylinder(r * 0.62, width + 0.03, axis, COLORS.rim, at, segments);
  p.cylinder(r * 0.22, width + 0.09, axis, COLORS.hub, at, 8);
}

// cabFrom: the driver's cab's nearest x to the swing axis (base frame's origin)
function carrierMesh(c, crane, ground, top, material, cabFrom = 0) {
  const p = pieces(SURFACE);
  const cab = crane.links.swing_cab.box_m;
  const width = cab[2] * 1.05;
  const front = c?.outrigger_front_m ?? 2.6, rear = c?.outrigger_rear_m ?? 2.6;
  const half = c?.outrigger_half_span_m ?? width / 2;
  const length = (front + rear) * VISUAL.carrierLengthPerPadSpan;
  const x0 = (front - rear) / 2 - length / 2, x1 = x0 + length;
  const r = Math.min(VISUAL.wheelRadius_m, Math.max(0.2, (top - ground) * 0.9));
  const railBottom = Math.max(ground + r * 0.6, top - VISUAL.chassisDepth_m);
  const axles = VISUAL.axleX_m.map((x) => x * length / 8.32);
  // the driver's cab ahead of the front tyres and outside the superstructure's low sweep
  const dc = VISUAL.driverCab_m;
  const cx = [Math.max(Math.max(...axles) + r + dc.gapToTyres, cabFrom)];
  cx.push(cx[0] + dc.length);
  const cz = [ground + dc.z[0], ground + dc.z[1]];
  const nose = Math.max(x1, cx[1] + 0.05);
  // frame rails (on to the cab), the deck plate under the turntable, the slew ring
  p.span([x0, -VISUAL.railHalfWidth_m, railBottom], [nose, VISUAL.railHalfWidth_m, top], COLORS.carrier);
  p.span([-front + 0.2, -width / 2, top - 0.12], [front - 0.2, width / 2, top], COLORS.carrier);
  const ringR = Math.min(cab[0], cab[2]) / 2;
  p.cylinder(ringR, 0.2, 'z', COLORS.steel, [0, 0, top], 24);
  // the wheels, a fender over each pair of axles
  const tw = VISUAL.tyreWidth_m, wy = width / 2 - tw / 2;
  for (const x of axles) {
    for (const y of [wy, -wy]) wheel(p, r, tw, 'y', [x, y, ground + r], VISUAL.wheelSegments);
  }
  for (const pair of [axles.slice(0, 2), axles.slice(2)]) {
    const xs = [Math.min(...pair) - r - 0.05, Math.max(...pair) + r + 0.05];
    for (const s of [1, -1]) {
      p.span([xs[0], s > 0 ? width / 2 - tw - 0.04 : -width / 2, ground + 2 * r + 0.05],
        [xs[1], s > 0 ? width / 2 : -width / 2 + tw + 0.04, ground + 2 * r + 0.1], COLORS.carrier);
    }
  }
  // the driver's cab, its windscreen and side window
  p.span([cx[0], dc.y[0], cz[0]], [cx[1], dc.y[1], cz[1]], COLORS.driverCab);
  p.span([cx[1] - 0.02, dc.y[0] + 0.1, cz[1] - 0.55], [cx[1] + 0.02, dc.y[1] - 0.1, cz[1] - 0.1], COLORS.glass);
  p.span([cx[0] + 0.15, dc.y[1] - 0.02, cz[1] - 0.55], [cx[1] - 0.1, dc.y[1] + 0.02, cz[1] - 0.1], COLORS.glass);
  // outriggers: a beam across at each pair of pads, a jack down to each pad
  const beam = width * VISUAL.beamPerWidth;
  const beamZ = top - beam / 2 - 0.02;
  const pads = c?.pad_height_m ?? ground;
  if (c) {
    for (const x of [front, -rear]) {
      p.box([beam, 2 * half, beam], COLORS.steel, [x, 0, beamZ]);
      for (const y of [half, -half]) {
        const jackTop = beamZ - beam / 2, jackBottom = pads + VISUAL.padThick_m;
        if (jackTop > jackBottom) p.span([x - beam * 0.3, y - beam * 0.3, jackBottom], [x + beam * 0.3, y + beam * 0.3, beamZ + beam / 2], COLORS.steel);
        p.box([VISUAL.padSide_m, VISUAL.padSide_m, VISUAL.padThick_m], COLORS.pad, [x, y, pads + VISUAL.padThick_m / 2]);
      }
    }
  }
  const mesh = p.mesh(material);
  mesh.name = 'carrier model';
  mesh.userData = { wheelRadius: r, axles, wheelY: wy, driverCab: { x: cx, y: dc.y, z: cz } };
  return mesh;
}

// pieces() that also keeps each piece's bounding box (in the part's frame)
function tracked(kindOf) {
  const p = pieces(kindOf), boxes = [];
  for (const k of ['box', 'span', 'cylinder']) {
    const make = p[k];
    p[k] = (...args) => {
      const g = make(...args);
      g.computeBoundingBox();
      boxes.push(g.boundingBox.clone());
      return g;
    };
  }
  return { p, boxes };
}

// frame 1: x forward, y up, z to the right; the swing base at y = carrierTop - d1.
// userData.sweep: per piece, its lowest point [m, base z] and its farthest reach from the
// swing axis [m], over all slews.
function superstructureMesh(crane, carrierTop, material, eyeLocal, cables = []) {
  const { p, boxes } = tracked(SURFACE);
  const link = crane.links.swing_cab;
  const [bx, by, bz] = link.box_m;
  const c = link.com_m;
  const xr = c[0] - bx / 2, xf = c[0] + bx / 2;            // rear and front of the model's box
  const floor = carrierTop - crane.d1_m, top = c[1] + by / 2;
  const zl = c[2] - bz / 2, zr = c[2] + bz / 2;            // left and right sides
  const deckTop = floor + 0.25;
  p.span([xr, floor, zl], [xf, deckTop, zr], COLORS.superstructure);
  // engine house on the left
  p.span([xr, deckTop, zl], [xf - VISUAL.opCab.length_m - 0.1, top, zl + VISUAL.houseWidth_m], COLORS.superstructure);
  const counterweight = counterweightBox(crane.counterweight);
  if (counterweight) p.span(counterweight.min, counterweight.max, COLORS.counterweight);
  // the boom foot: two plates up to the pivot at the origin, and its pin
  const t = VISUAL.footPlate_m, w = crane.links.boom_base.box_m[1] / 2 + 0.02;
  for (const s of [1, -1]) {
    p.span([-0.4, deckTop, s > 0 ? w : -w - t], [0.4, 0.25, s > 0 ? w + t : -w], COLORS.superstructure);
  }
  p.cylinder(VISUAL.pinRadius_m, 2 * (w + t) + 0.1, 'z', COLORS.steel, [0, 0, 0], 12);
  // the operator's cab at the front right, around the eye: a body up to the sill, four
  // pillars and a roof (open between them: the Window view looks out through it)
  const oc = VISUAL.opCab;
  const eye = eyeLocal ?? [xf - 0.8, top - 0.07, zr - 0.5];
  const cx = [xf - oc.length_m, xf], cz = [zr - oc.width_m, zr];
  const sill = eye[1] - oc.sillBelowEye_m, roof = eye[1] + oc.roofAboveEye_m;
  p.span([cx[0], deckTop, cz[0]], [cx[1], sill, cz[1]], COLORS.opCab);
  p.span([cx[0], roof, cz[0]], [cx[1], roof + 0.08, cz[1]], COLORS.opCab);
  const pl = oc.pillar_m;
  for (const x of [cx[0], cx[1] - pl]) {
    for (const z of [cz[0], cz[1] - pl]) p.span([x, sill, z], [x + pl, roof, z + pl], COLORS.pillar);
  }
  p.span([cx[0], sill, cz[0]], [cx[0] + 0.04, roof, cz[1]], COLORS.opCab);  // rear wall
  const drums = winchDrums(p, cables, deckTop);
  const mesh = p.mesh(material);
  mesh.name = 'superstructure model';
  const sweep = boxes.map((b) => ({
    bottom: b.min.y + crane.d1_m,
    reach: Math.max(...[b.min.x, b.max.x].flatMap((x) => [b.min.z, b.max.z].map((z) => Math.hypot(x - crane.a1_m, z)))),
  }));
  mesh.userData = { swingAxisX: crane.a1_m, counterweight,
    opCab: { x: cx, y: [sill, roof], z: cz }, drums, sweep };
  return mesh;
}

// The counterweight's block from the hello (frame 1), its sides 2 cm inside the model's so
// that they do not share a plane with the deck's; null when the hello has none.
function counterweightBox(cw) {
  if (!cw) return null;
  const inset = [0, 0, 0.02];
  const min = cw.com_m.map((c, i) => c - cw.box_m[i] / 2 + inset[i]);
  const max = cw.com_m.map((c, i) => c + cw.box_m[i] / 2 - inset[i]);
  return { min, max };
}

// frame 2: the base section from the pivot along +z for its box's length, a collar at its head
function boomBaseMesh(base, material, cables = [], fly = null) {
  const p = pieces(SURFACE);
  const [sx, sy, sz] = base.box_m;
  const z0 = base.com_m[2] - sz / 2, z1 = base.com_m[2] + sz / 2;
  p.span([-sx / 2, -sy / 2, z0], [sx / 2, sy / 2, z1], COLORS.boom);
  const k = VISUAL.headCollar_m;
  p.span([-sx / 2 - 0.04, -sy / 2 - 0.04, z1 - k], [sx / 2 + 0.04, sy / 2 + 0.04, z1], COLORS.steel);
  p.cylinder(VISUAL.pinRadius_m * 1.3, sy + 0.05, 'y', COLORS.steel, [0, 0, Math.max(z0, 0) + 0.15], 12);
  const feet = footSheaves(p, cables, sx, (fly ?? base).box_m[1] * SHEAVES.groovePerFlyWidth);
  const mesh = p.mesh(material);
  mesh.name = 'boom base model';
  mesh.userData = { footSheaves: feet };
  return mesh;
}

// frame 3: the fly section from -length to the origin, the sheaves at the origin
function flyMesh(fly, cables, material) {
  const p = pieces(SURFACE);
  const [sx, sy, sz] = fly.box_m;
  p.span([-sx / 2, -sy / 2, -sz], [sx / 2, sy / 2, 0], COLORS.fly);
  const r = Math.max(...cables.map((c) => c.drum_radius_m));
  const off = sy * SHEAVES.groovePerFlyWidth;  // where scene.js lets the cables leave the tip
  for (const y of [off, -off]) p.cylinder(r, VISUAL.sheaveWidth_m, 'y', COLORS.sheave, [0, y, 0], VISUAL.sheaveSegments);
  p.cylinder(r * 0.2, sy + 0.12, 'y', COLORS.steel, [0, 0, 0], 8);
  for (const y of [sy / 2 + 0.03, -sy / 2 - 0.03]) {
    p.span([-sx / 2 - 0.05, y - 0.015, -r * 1.5], [sx / 2 + 0.05, y + 0.015, 0], COLORS.steel);
  }
  const mesh = p.mesh(material);
  mesh.name = 'fly model';
  mesh.userData = { sheaveRadius: r, length: sz };
  return mesh;
}

// Where the hello reeves each rope (machine.cables[i].reeving: rope-path.js), the parts that
// carry it: its drum on the superstructure, the foot sheave on the boom's base section (the
// tip sheaves are the fly's, above). Both axles run across the boom: frame 1's z, frame 2's y.

// frame 1: a drum of the rope's drum_radius_m at each superstructure anchor, the rope wound
// on it, flanges, and a bracket at each end down to the deck. Returns the drums' centres.
function winchDrums(p, cables, deckTop) {
  const out = [];
  for (const c of cables) {
    const a = c.reeving?.find((x) => x.part === 'superstructure');
    if (!a || !(c.drum_radius_m > 0)) continue;
    const r = c.drum_radius_m, at = a.at;
    const length = r * VISUAL.drumLengthPerRadius;
    p.cylinder(r * 0.92, length, 'z', COLORS.drum, at, VISUAL.sheaveSegments);
    p.cylinder(r, length * 0.9, 'z', COLORS.woundRope, at, VISUAL.sheaveSegments);
    for (const s of [1, -1]) {
      p.cylinder(r * 1.3, 0.04, 'z', COLORS.drum, [at[0], at[1], at[2] + s * (length / 2 + 0.02)], VISUAL.sheaveSegments);
      const z = at[2] + s * (length / 2 + 0.07);
      if (at[1] > deckTop) p.span([at[0] - r * 0.5, deckTop, z - 0.03], [at[0] + r * 0.5, at[1], z + 0.03], COLORS.steel);
    }
    p.cylinder(r * 0.2, length + 0.3, 'z', COLORS.steel, at, 8);
    out.push({ at: [...at], radius: r, length });
  }
  return out;
}

// frame 2: the foot sheave at the boom_base anchor, a groove for each rope either side of
// the middle (as at the tip), on an axle carried by two plates up from the section's top.
function footSheaves(p, cables, depth, groove) {
  const out = [];
  const seen = new Set();
  for (const c of cables) {
    const a = c.reeving?.find((x) => x.part === 'boom_base');
    if (!a || !(c.drum_radius_m > 0)) continue;
    const key = a.at.join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    const r = c.drum_radius_m * SHEAVES.footPerDrum, at = a.at;
    for (const y of [groove, -groove]) {
      p.cylinder(r, VISUAL.sheaveWidth_m, 'y', COLORS.sheave, [at[0], at[1] + y, at[2]], VISUAL.sheaveSegments);
    }
    const half = groove + VISUAL.sheaveWidth_m;
    p.cylinder(r * 0.2, 2 * half + 0.1, 'y', COLORS.steel, at, 8);
    for (const s of [1, -1]) {
      p.span([Math.min(depth / 2, at[0]) - 0.02, at[1] + s * half - 0.015, at[2] - r * 0.5],
        [at[0] + r * 0.3, at[1] + s * half + 0.015, at[2] + r * 0.5], COLORS.steel);
    }
    out.push({ at: [...at], radius: r });
  }
  return out;
}
