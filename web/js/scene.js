// The three.js world built from the server's hello: crane links as the model's boxes in
// their D-H frames, the clam's kite, the two cables, the water and the dam intake.
// Everything sits under `root`, which turns the base frame (z up) into three.js's y up,
// so positions from the server and geometry.js are used as they are.
//
// Sizes the model does not carry are drawn in proportion to ones it does, and say so
// where they are chosen (VISUAL_*): they change nothing but the look.

import { waterLook, CLEAR } from './water-look.js';
import * as THREE from 'three';
import { craneFrames, pose, cableCurve, workArea, tiltMatrix, transformPoint, mul, DEG } from './geometry.js';
import { buildLoads } from './loads.js';
import { sceneBoxToOriented, clamTargets } from './occlusion.js';

const VISUAL = {
  ropeRadiusPerDrumRadius: 1 / 15,   // rope diameter ~ drum diameter / 15
  bucketWidthPerLink2: 1.0,          // bucket as wide as link 2 is long (Fig. 2.1 photo)
  armThicknessPerLink1: 0.06,
  pulleyRadiusPerLink2: 0.12,
  carrierLengthPerCab: 2.6,          // carrier box when the server sends no outriggers
  carrierLengthPerPadSpan: 1.6,      // the carrier is longer than its pads are apart
  outriggerBeamPerCabWidth: 0.12,    // outrigger beam's square section
  padSidePerCabWidth: 0.25,          // a pad's side (~0.6 m for a 2.4 m cab)
  jackHeightPerCabWidth: 0.25,       // the beam this far above its pads
  flyOverlapPerBase: 0.1,            // fly section stays 10 % inside the base section
  rackBarWidthPerSpacing: 0.3,
  loadDensity_kg_m3: 600,            // wood: a held load without a shape is drawn as a ball
  sagPerSlack: 1.0,                  // 1 m of sideways bow per metre of slack (thesis 3.2.4)
};

const COLORS = {
  sky: 0xb8d4e8, underwater: CLEAR.deep, water: CLEAR.surface, concrete: 0xa8a49c, steel: 0x55606a,
  rackBar: 0x39424a, gate: 0xc9a227, truck: 0x9b3b2a, carrier: 0x3d4a57, cab: 0xe0b020,
  boom: 0xe8c02a, fly: 0xd9d4c4, clam: 0x4a5560, bucket: 0x6b7780, cable1: 0x202020,
  cable2: 0x8a2be2, bottom: 0x4d4536, load: 0x7a5533,
};

function mat(color, extra = {}) {
  return new THREE.MeshLambertMaterial({ color, ...extra });
}

function boxMesh(size, material) {
  return new THREE.Mesh(new THREE.BoxGeometry(size[0], size[1], size[2]), material);
}

// A scene box {center_m, size_m, yaw_deg} as a mesh in the base frame.
function sceneBox(b, material) {
  const m = boxMesh(b.size_m, material);
  m.position.set(...b.center_m);
  m.rotation.z = (b.yaw_deg ?? 0) * DEG;
  return m;
}

function setFromRowMajor(m4, T) {
  m4.set(...T);
  return m4;
}

// Vertical bars along the rack's longer horizontal side, with a beam at top and bottom.
function trashRack(rack, steel, barMat) {
  const g = new THREE.Group();
  g.position.set(...rack.center_m);
  g.rotation.z = (rack.yaw_deg ?? 0) * DEG;
  const [sx, sy, sz] = rack.size_m;
  const alongX = sx >= sy;
  const length = alongX ? sx : sy, depth = alongX ? sy : sx;
  const spacing = rack.bar_spacing_m ?? length / 20;
  const barWidth = Math.min(depth, rack.bar_width_m ?? spacing * VISUAL.rackBarWidthPerSpacing);
  const count = Math.max(2, Math.floor(length / spacing) + 1);
  const beam = Math.min(depth, sz / 10);
  const bar = new THREE.BoxGeometry(alongX ? barWidth : depth, alongX ? depth : barWidth, sz - 2 * beam);
  const bars = new THREE.InstancedMesh(bar, barMat, count);
  const m = new THREE.Matrix4();
  const start = -((count - 1) * spacing) / 2;
  for (let i = 0; i < count; i++) {
    const s = start + i * spacing;
    m.makeTranslation(alongX ? s : 0, alongX ? 0 : s, 0);
    bars.setMatrixAt(i, m);
  }
  g.add(bars);
  for (const z of [-(sz - beam) / 2, (sz - beam) / 2]) {
    const b = boxMesh([alongX ? length : depth, alongX ? depth : length, beam], steel);
    b.position.z = z;
    g.add(b);
  }
  return g;
}

// One half of the clam in its own plane (x towards its hinge B, y up, z across):
// link 1 as two arms A-B, the bucket (link 2) as a rigid shell pivoting at C.
function clamHalf(clam, materials) {
  const l1 = clam.link1_length_m, l2 = clam.link2_length_m, L = clam.lip_length_m;
  const width = l2 * VISUAL.bucketWidthPerLink2;
  const t = l1 * VISUAL.armThicknessPerLink1;
  const half = new THREE.Group();
  const arms = [];
  for (const z of [-(width / 2 - t), width / 2 - t]) {
    const arm = boxMesh([t, l1, t], materials.clam);
    arm.position.z = z;
    half.add(arm);
    arms.push(arm);
  }
  // bucket outline at the closed pose, pivot C at the origin: C -> B along link 2,
  // the rounded back from B down to the lip tip, the lip back up to C on the axis
  const tc = clam.theta2_closed_deg * DEG;
  const bx = l2 * Math.sin(tc), by = l2 * Math.cos(tc);
  const shape = new THREE.Shape();
  shape.moveTo(0, 0);
  shape.lineTo(bx, by);
  shape.quadraticCurveTo(bx, -L, 0, -L);
  shape.lineTo(0, 0);
  const geo = new THREE.ExtrudeGeometry(shape, { depth: width, bevelEnabled: false, curveSegments: 10 });
  geo.translate(0, 0, -width / 2);
  const bucket = new THREE.Mesh(geo, materials.bucket);
  half.add(bucket);
  return { half, arms, bucket };
}

function buildClam(clam, materials) {
  const group = new THREE.Group();
  group.matrixAutoUpdate = false;
  const right = clamHalf(clam, materials);
  const left = clamHalf(clam, materials);
  left.half.scale.x = -1;  // mirror; three flips the face winding for a negative determinant
  group.add(right.half, left.half);
  const width = clam.link2_length_m * VISUAL.bucketWidthPerLink2;
  const r = clam.link2_length_m * VISUAL.pulleyRadiusPerLink2;
  const pulley = new THREE.Mesh(new THREE.CylinderGeometry(r, r, width * 1.05, 16), materials.clam);
  pulley.rotation.x = Math.PI / 2;
  const head = boxMesh([r * 2.5, r * 2, width * 0.9], materials.clam);
  group.add(pulley, head);
  const halves = [right, left];
  return {
    group,
    // shape from geometry.clamShape, in the clam's own plane (A at the origin)
    update(shape) {
      for (const h of halves) {
        h.arms.forEach((arm) => {
          arm.position.x = shape.b[0] / 2;
          arm.position.y = shape.b[1] / 2;
          arm.rotation.z = shape.theta1;
        });
        h.bucket.position.set(shape.c[0], shape.c[1], 0);
        h.bucket.rotation.z = clam.theta2_closed_deg * DEG - shape.theta2;
      }
      pulley.position.set(0, shape.c[1], 0);
    },
  };
}

// A cable as a tube along the sagging curve; rebuilt per frame (a few hundred vertices).
function makeCable(radius, material) {
  const mesh = new THREE.Mesh(new THREE.BufferGeometry(), material);
  return {
    mesh,
    update(points) {
      const curve = new THREE.CatmullRomCurve3(points.map((p) => new THREE.Vector3(...p)));
      mesh.geometry.dispose();
      mesh.geometry = new THREE.TubeGeometry(curve, points.length * 2, radius, 6, false);
    },
  };
}

// The carrier: with the server's outriggers (machine.carrier), a chassis along x over the
// pads' rectangle, a beam across at the front and rear pads, and the four pads at
// pad_height; without them, a chassis as long as VISUAL.carrierLengthPerCab cabs, parked
// across the base frame's x (along the dam's crest, boom over the water).
function carrier(c, { ground, carrierTop, cabBox, materials }) {
  const width = cabBox[2] * 1.05;
  if (!c) {
    return sceneBox({ center_m: [0, 0, (ground + carrierTop) / 2],
      size_m: [cabBox[0] * VISUAL.carrierLengthPerCab, width, carrierTop - ground], yaw_deg: 90 }, materials.carrier);
  }
  const g = new THREE.Group();
  const front = c.outrigger_front_m, rear = c.outrigger_rear_m, half = c.outrigger_half_span_m, pads = c.pad_height_m;
  const beam = cabBox[2] * VISUAL.outriggerBeamPerCabWidth, side = cabBox[2] * VISUAL.padSidePerCabWidth;
  const beamZ = pads + cabBox[2] * VISUAL.jackHeightPerCabWidth;
  const bottom = Math.min(beamZ, carrierTop - 0.2);
  const length = (front + rear) * VISUAL.carrierLengthPerPadSpan;
  g.add(sceneBox({ center_m: [(front - rear) / 2, 0, (bottom + carrierTop) / 2], size_m: [length, width, carrierTop - bottom] },
    materials.carrier));
  for (const x of [front, -rear]) {
    g.add(sceneBox({ center_m: [x, 0, beamZ], size_m: [beam, 2 * half, beam] }, materials.steel));
    for (const y of [half, -half]) {
      const jack = beamZ - pads;
      if (jack > 0) g.add(sceneBox({ center_m: [x, y, pads + jack / 2], size_m: [beam * 0.6, beam * 0.6, jack] }, materials.steel));
      g.add(sceneBox({ center_m: [x, y, pads + 0.04], size_m: [side, side, 0.08] }, materials.steel));
    }
  }
  return g;
}

function heldLoad(materials) {
  const mesh = new THREE.Mesh(new THREE.SphereGeometry(1, 16, 12), materials.load);
  mesh.visible = false;
  return mesh;
}

export function buildWorld(hello) {
  const { machine, scene: sc } = hello;
  const crane = machine.crane, clam = machine.clam;
  const area = workArea(machine, sc);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(COLORS.sky);
  const root = new THREE.Group();
  root.rotation.x = -Math.PI / 2;  // base (x, y, z) -> three (x, z, -y)
  scene.add(root);

  scene.add(new THREE.HemisphereLight(0xeef4ff, 0x4a4238, 2.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.8);
  sun.position.set(40, 60, -25);
  scene.add(sun);

  const materials = {
    // both sides: the focus view cuts through piers and the deck, which then look solid
    concrete: mat(COLORS.concrete, { side: THREE.DoubleSide }), steel: mat(COLORS.steel), rackBar: mat(COLORS.rackBar),
    gate: mat(COLORS.gate), truck: mat(COLORS.truck), carrier: mat(COLORS.carrier),
    cab: mat(COLORS.cab), boom: mat(COLORS.boom), fly: mat(COLORS.fly), clam: mat(COLORS.clam),
    bucket: mat(COLORS.bucket, { side: THREE.DoubleSide }), load: mat(COLORS.load),
    cable1: mat(COLORS.cable1), cable2: mat(COLORS.cable2), bottom: mat(COLORS.bottom),
  };

  // dam intake; each piece is a structure that turns see-through when it hides the work
  // (occlusion.js), its box in three's frame (root turns base (x, y, z) into (x, z, -y))
  const structures = [];
  const baseToThree = (v) => [v[0], v[2], -v[1]];
  const structure = (name, box, obj) => {
    obj.name = name;
    root.add(obj);
    structures.push({ name, box: sceneBoxToOriented(box, baseToThree), objects: [obj] });
  };
  sc.intake_walls.forEach((w, i) => structure(`intake wall ${i + 1}`, w, sceneBox(w, materials.concrete)));
  if (sc.deck) structure('deck', sc.deck, sceneBox(sc.deck, materials.concrete));
  if (sc.intake_floor) structure('intake floor', sc.intake_floor, sceneBox(sc.intake_floor, materials.concrete));
  if (sc.gate) structure('gate', sc.gate, sceneBox(sc.gate, materials.gate));
  if (sc.truck_bed) structure('truck', sc.truck_bed, sceneBox(sc.truck_bed, materials.truck));
  if (sc.trash_rack) structure('trash rack', sc.trash_rack, trashRack(sc.trash_rack, materials.steel, materials.rackBar));

  // water surface: the reservoir's top face if the scene has one, else around the work
  // area; the reservoir's bed (or one under the lowest part of the intake) below it
  const res = sc.reservoir;
  const waterSize = res ? [res.size_m[0], res.size_m[1]] : [area.size[0] * 1.6, area.size[1] * 1.6];
  const waterAt = res ? res.center_m : [area.center[0], area.center[1]];
  const wet = sc.water_level_m !== null;  // an empty scene has no water
  const water = new THREE.Mesh(new THREE.PlaneGeometry(...waterSize),
    new THREE.MeshPhongMaterial({ color: COLORS.water, transparent: true, opacity: 0.5,
      side: THREE.DoubleSide, depthWrite: false, shininess: 80 }));
  water.position.set(waterAt[0], waterAt[1], sc.water_level_m ?? 0);
  water.visible = wet;
  water.rotation.z = res ? res.yaw_deg * DEG : 0;
  water.renderOrder = 2;
  root.add(water);
  const bedZ = res ? res.center_m[2] - res.size_m[2] / 2 : area.zMin - 0.01;
  if (wet && bedZ < sc.water_level_m) {
    const bed = new THREE.Mesh(new THREE.PlaneGeometry(...waterSize), materials.bottom);
    bed.position.set(waterAt[0], waterAt[1], bedZ);
    bed.rotation.z = water.rotation.z;
    root.add(bed);
  }

  // carrier: the model's own box if the server sends one, else a chassis as long as
  // VISUAL.carrierLengthPerCab cabs, from the deck (or the swing base) up to the cab's
  // floor, parked across the base frame's x (along the dam's crest, boom over the water)
  const cabLink = crane.links.swing_cab;
  const cabBox = cabLink.box_m;
  const cabFloor = crane.d1_m + cabLink.com_m[1] - cabBox[1] / 2;  // frame 1: y up, origin at d1
  const deck = sc.deck;
  const onDeck = deck && Math.abs(deck.center_m[0]) <= deck.size_m[0] / 2 && Math.abs(deck.center_m[1]) <= deck.size_m[1] / 2;
  const ground = onDeck ? deck.center_m[2] + deck.size_m[2] / 2 : Math.min(0, cabFloor - 1);
  const carrierTop = Math.max(cabFloor, ground + 0.2);
  // the whole machine (carrier, superstructure, boom) in one group, which the frame's tilt
  // turns about the side it tips over; the ropes and the clam are drawn from the server's
  // points (tip_m already tilted), so they stay outside it
  const craneGroup = new THREE.Group();
  craneGroup.matrixAutoUpdate = false;
  root.add(craneGroup);
  craneGroup.add(carrier(machine.carrier, { ground, carrierTop, cabBox, materials }));
  const ringR = Math.min(cabBox[0], cabBox[2]) / 2;
  const ring = new THREE.Mesh(new THREE.CylinderGeometry(ringR, ringR, 0.2, 24), materials.steel);
  ring.rotation.x = Math.PI / 2;
  ring.position.z = carrierTop;
  craneGroup.add(ring);

  // crane links: each model box at its CoG in its D-H frame
  const frames = [0, 1, 2].map(() => {
    const g = new THREE.Group();
    g.matrixAutoUpdate = false;
    craneGroup.add(g);
    return g;
  });
  const cab = boxMesh(cabBox, materials.cab);
  cab.position.set(...crane.links.swing_cab.com_m);
  frames[0].add(cab);
  const base = crane.links.boom_base;
  const baseMesh = boxMesh(base.box_m, materials.boom);
  baseMesh.position.set(...base.com_m);
  frames[1].add(baseMesh);
  const fly = crane.links.telescopic;
  const flyMesh = boxMesh([fly.box_m[0], fly.box_m[1], 1], materials.fly);
  frames[1].add(flyMesh);  // placed in frame 2 so its length can follow d3
  const baseEnd = base.com_m[2] + base.box_m[2] / 2;
  const flyStartMax = baseEnd - base.box_m[2] * VISUAL.flyOverlapPerBase;
  const sheaveR = Math.max(...machine.cables.map((c) => c.drum_radius_m));
  const sheave = new THREE.Mesh(new THREE.CylinderGeometry(sheaveR, sheaveR, fly.box_m[1] * 1.2, 20), materials.steel);
  frames[2].add(sheave);  // axis along frame 3's y, across the boom

  // cables: leave the tip on either side of the boom, bow to opposite sides when slack
  const ropeR = sheaveR * VISUAL.ropeRadiusPerDrumRadius;
  const cables = [makeCable(ropeR, materials.cable1), makeCable(ropeR, materials.cable2)];
  for (const c of cables) root.add(c.mesh);

  const clamModel = buildClam(clam, materials);
  root.add(clamModel.group);
  const load = heldLoad(materials);
  root.add(load);
  const loads = buildLoads(root, sc.loads);

  const m4 = new THREE.Matrix4();
  const state = { pose: null, frame: null, slack: [0, 0], sag: [0, 0], water: waterLook(0), tilt: tiltMatrix(null, 0), tiltDeg: 0 };
  // points of the clam and its load the cameras must see (occlusion.js), in three's frame
  const targets = { points: [], count: 0 };

  function update(frame) {
    const p = pose(machine, frame);
    // murky water (an instructor's condition): the surface hides what is under it
    if (frame.turbidity !== state.water.turbidity) {
      state.water = waterLook(frame.turbidity);
      water.material.opacity = state.water.surfaceOpacity;
      water.material.color.setHex(state.water.surfaceColor);
    }
    const T = craneFrames(crane, p.swing, p.boom, p.tele);
    T.forEach((t, i) => setFromRowMajor(frames[i].matrix, t));
    frames.forEach((f) => f.matrixWorldNeedsUpdate = true);
    // the server's tilt, as it sends it: a turn about the line, no statics of our own
    state.tilt = tiltMatrix(frame.tilt_axis, frame.tilt_deg);
    state.tiltDeg = frame.tilt_axis ? frame.tilt_deg : 0;
    setFromRowMajor(craneGroup.matrix, state.tilt);
    craneGroup.matrixWorldNeedsUpdate = true;
    const flyStart = Math.min(p.tele - fly.box_m[2], flyStartMax);
    flyMesh.scale.z = Math.max(0.01, p.tele - flyStart);
    flyMesh.position.set(fly.com_m[0], fly.com_m[1], (p.tele + flyStart) / 2);

    // clam frame: origin A, x towards B, y up the clam's axis, z across
    const u = new THREE.Vector3(...p.u), w = new THREE.Vector3(...p.w);
    const n = new THREE.Vector3().crossVectors(u, w);
    m4.makeBasis(u, w, n).setPosition(...p.a);
    clamModel.group.matrix.copy(m4);
    clamModel.group.matrixWorldNeedsUpdate = true;
    clamModel.update(p.shape);

    // cable exits at the tip, offset across the boom (frame 3's y axis, tilted with the boom)
    const Tt = state.tilt;
    const across = [0, 4, 8].map((r) => Tt[r] * T[2][1] + Tt[r + 1] * T[2][5] + Tt[r + 2] * T[2][9]);
    const off = fly.box_m[1] * 0.35;
    const ends = [p.a, p.c];
    const lengths = [frame.display[5], frame.display[6]];
    const sides = [p.heading, p.heading.map((x) => -x)];
    for (let i = 0; i < 2; i++) {
      const sgn = i === 0 ? 1 : -1;
      const top = p.tip.map((x, k) => x + sgn * off * across[k]);
      const bottom = ends[i].map((x, k) => x + sgn * off * 0.3 * across[k]);
      const c = cableCurve(top, bottom, lengths[i], sides[i], { sagPerSlack: VISUAL.sagPerSlack, segments: 12 });
      cables[i].update(c.points);
      state.slack[i] = c.slack;
      state.sag[i] = c.sag;
    }

    // a held load the world does not report (a 2001-style frame): a ball of wood between the jaws
    const mass = frame.display[7];
    load.visible = mass > 0 && frame.loads.length === 0;
    if (load.visible) {
      const r = Math.cbrt((3 * mass) / (4 * Math.PI * VISUAL.loadDensity_kg_m3));
      load.scale.setScalar(r);
      load.position.set(...p.c.map((x, k) => x - p.w[k] * r * 0.8));
    }
    loads.update(frame.loads, frame.held_load ?? null);
    const held = frame.loads[frame.held_load ?? -1]?.position_m
      ?? (load.visible ? [load.position.x, load.position.y, load.position.z] : null);
    targets.count = clamTargets(p, held, targets.points);
    for (let i = 0; i < targets.count; i++) {
      const t = targets.points[i], y = t[1];
      t[1] = t[2];
      t[2] = -y;
    }
    state.pose = p;
    state.frame = frame;
  }

  // positions in three's frame for the cameras
  const toThree = (p) => new THREE.Vector3(p[0], p[2], -p[1]);
  const eyeLocal = [
    crane.links.swing_cab.com_m[0] + cabBox[0] * 0.3,
    crane.links.swing_cab.com_m[1] + cabBox[1] * 0.45,
    crane.links.swing_cab.com_m[2] + cabBox[2] * 0.3,
  ];
  return {
    scene, root, water, area, machine, sceneInfo: sc, state, update,
    structures, targets,
    // contact markers (markers.js) at `now` [ms]; the number drawn
    updateMarkers: (markers, now) => loads.updateMarkers(markers, now),
    counts: () => loads.counts(),
    waterLevel: sc.water_level_m ?? ground,
    groundLevel: ground,
    toThree,
    colors: COLORS,
    clamSize: clam.link1_length_m + clam.link2_length_m + clam.lip_length_m,
    // operator's eye: front right of the cab, under its roof, in frame 1 (y up, z right)
    eye() {
      if (!state.pose) return null;
      // the cab tips with the machine: the operator's eye with it
      const T = mul(state.tilt, craneFrames(crane, state.pose.swing, state.pose.boom, state.pose.tele)[0]);
      return toThree(transformPoint(T, eyeLocal));
    },
    clamCenter() {
      if (!state.pose) return null;
      const { a, c } = state.pose;
      return toThree(a.map((x, k) => (x + c[k]) / 2));
    },
    clamAcross() {
      if (!state.pose) return new THREE.Vector3(0, 0, 1);
      const { u, w } = state.pose;
      return toThree([u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]]);
    },
    heading() {
      return state.pose ? toThree(state.pose.heading) : new THREE.Vector3(1, 0, 0);
    },
    tip() {
      return state.pose ? toThree(state.pose.tip) : null;
    },
    dispose() {
      scene.traverse((o) => {
        o.geometry?.dispose?.();
      });
      for (const m of Object.values(materials)) m.dispose();
      water.material.dispose();
      loads.dispose();
    },
  };
}
