// The three.js world built from the server's hello: the carrier and the crane's links as
// web/js/models/ draws them, the clam's head, arms and buckets, the two ropes (from their drums along the
// boom, where the hello reeves them, and down to the clam), the water and the dam intake.
// Every moving part is placed by the pose the server sends for it (display.parts,
// in hello.parts' order); the page computes no kinematics. Everything sits under `root`,
// which turns the base frame (z up) into three.js's y up, so positions from the server are
// used as they are.
//
// Sizes the model does not carry are drawn in proportion to ones it does, and say so
// where they are chosen (VISUAL_*): they change nothing but the look.

import { waterLook, CLEAR } from './water-look.js';
import * as THREE from 'three';
import { cableCurve, workArea, posePoint, poseAxis, partIndex, tubeIndices, writeTube, DEG } from './geometry.js';
import { buildLoads } from './loads.js';
import { sceneBoxToOriented, clamTargets } from './occlusion.js';
import { buildCrane } from './models/crane-model.js';
import { pierMesh, deckMesh, gateMesh, truckMesh } from './models/dam-model.js';
import { buildClamModel } from './models/clam-model.js';
import { reevings, ropeAnchors, ropeRoute, routeLength, spreadAnchors, SHEAVES } from './rope-path.js';
import { modelMaterial } from './models/merge.js';
import { qualitySettings } from './quality.js';
import { surfaceMaterial, setLights } from './materials.js';
import { createSky, createWater } from './environment.js';

const VISUAL = {
  ropeRadiusPerDrumRadius: 1 / 15,   // rope diameter ~ drum diameter / 15
  rackBarWidthPerSpacing: 0.3,
  loadDensity_kg_m3: 600,            // wood: a held load without a shape is drawn as a ball
  sagPerSlack: 1.0,                  // 1 m of sideways bow per metre of slack (thesis 3.2.4)
  barrelPerBore: 1.25,               // the boom cylinder's barrel around its bore
  rodPerBore: 0.55,                  // its rod (110 mm on a 200 mm bore, models/t250.json)
  cableRings: 25,                    // points along a drawn cable's hanging part
  cableSides: 6,                     // vertices around it
};

const COLORS = {
  sky: 0xb8d4e8, underwater: CLEAR.deep, water: CLEAR.surface, concrete: 0xa8a49c, steel: 0x55606a,
  rackBar: 0x39424a, cable1: 0x202020, cable2: 0x8a2be2, bottom: 0x4d4536, load: 0x7a5533, rod: 0xc8ccd0,
};

// a material of one colour for a kind of surface (materials.js) at the page's quality
function mat(look, color, kind = 'paint', extra = {}) {
  return surfaceMaterial(kind, look, { color, ...extra });
}

// The renderer's part of the quality (quality.js): shadow maps and tone mapping at high.
// Shadows are drawn once per drawing (views.js asks), not once per viewport of Total; the
// draw-call counters add up over the viewports (views.js resets them).
export function configureRenderer(renderer, look) {
  renderer.shadowMap.enabled = look.shadows;
  renderer.shadowMap.type = THREE.PCFShadowMap;
  renderer.shadowMap.autoUpdate = false;
  renderer.toneMapping = look.pbr ? THREE.NeutralToneMapping : THREE.NoToneMapping;
  renderer.info.autoReset = false;
}

// the sun: its direction (towards it, three's frame: y up), the shadow map's texels
const SUN = { direction: [40, 60, -25], shadowMapSize: 2048, shadowMargin_m: 3 };

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

// the parts every frame places (hello.parts names them; these are the ones drawn)
export const PARTS = ['carrier', 'superstructure', 'boom_base', 'fly', 'clam_head', 'arm_right', 'arm_left',
  'shell_right', 'shell_left'];

// A group placed by a pose [x, y, z, qw, qx, qy, qz]: its matrix set, not its position.
function partGroup(parent, name) {
  const g = new THREE.Group();
  g.name = name;
  g.matrixAutoUpdate = false;
  parent.add(g);
  return g;
}
const tmpV = new THREE.Vector3(), tmpQ = new THREE.Quaternion(), ONE = new THREE.Vector3(1, 1, 1);
function place(group, pose) {
  group.matrix.compose(tmpV.set(pose[0], pose[1], pose[2]), tmpQ.set(pose[4], pose[5], pose[6], pose[3]), ONE);
  group.matrixWorldNeedsUpdate = true;
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

// The clam in its parts' frames (docs/websocket-protocol.md "Parts"), as
// models/clam-model.js draws it: one merged mesh per part.
function clamModel(clam, materials, root) {
  const m = buildClamModel(clam, materials.model);
  const meshes = { clam_head: m.head, arm_right: m.armRight, arm_left: m.armLeft, shell_right: m.shellRight,
    shell_left: m.shellLeft };
  return Object.fromEntries(Object.entries(meshes).map(([n, mesh]) => {
    const g = partGroup(root, n);
    g.add(mesh);
    return [n, g];
  }));
}

// A cable as a tube of a fixed layout (geometry.writeTube): built once, its positions and
// normals rewritten in place at every draw.
function makeCable(radius, material, rings = VISUAL.cableRings, sides = VISUAL.cableSides) {
  const positions = new Float32Array(rings * sides * 3), normals = new Float32Array(rings * sides * 3);
  const geometry = new THREE.BufferGeometry();
  const pos = new THREE.BufferAttribute(positions, 3).setUsage(THREE.DynamicDrawUsage);
  const nor = new THREE.BufferAttribute(normals, 3).setUsage(THREE.DynamicDrawUsage);
  geometry.setAttribute('position', pos);
  geometry.setAttribute('normal', nor);
  geometry.setIndex(new THREE.BufferAttribute(tubeIndices(rings, sides), 1));
  const mesh = new THREE.Mesh(geometry, material);
  mesh.frustumCulled = false;   // its bounds change every draw; it is always near the work
  mesh.visible = false;
  return {
    mesh,
    // points: `rings` points along the cable
    update(points) {
      writeTube(points, radius, sides, positions, normals);
      pos.needsUpdate = true;
      nor.needsUpdate = true;
      mesh.visible = true;
    },
  };
}

function heldLoad(materials) {
  const mesh = new THREE.Mesh(new THREE.SphereGeometry(1, 16, 12), materials.load);
  mesh.visible = false;
  return mesh;
}

// Shadows at high quality: every mesh of the machine, the clam, the loads and the dam casts
// and receives, but not the water; the sun's shadow camera just holds the work area (the
// crane's reach and the structures, from the lowest to the boom's highest point) so its
// texels stay small.
function castShadows({ root, sun, area, water, baseToThree }) {
  root.traverse((o) => {
    if (!o.isMesh || o === water) return;
    o.castShadow = true;
    o.receiveShadow = true;
  });
  const m = SUN.shadowMargin_m;
  const cam = sun.shadow.camera;
  cam.position.copy(sun.position);
  cam.lookAt(sun.target.position);
  cam.updateMatrixWorld();
  const lo = new THREE.Vector3(Infinity, Infinity, Infinity), hi = lo.clone().negate(), p = new THREE.Vector3();
  for (const x of [area.min[0] - m, area.max[0] + m]) {
    for (const y of [area.min[1] - m, area.max[1] + m]) {
      for (const z of [area.zMin - m, area.zMax + m]) {
        p.set(...baseToThree([x, y, z])).applyMatrix4(cam.matrixWorldInverse);
        lo.min(p);
        hi.max(p);
      }
    }
  }
  Object.assign(cam, { left: lo.x, right: hi.x, bottom: lo.y, top: hi.y, near: Math.max(0.1, -hi.z), far: -lo.z });
  cam.updateProjectionMatrix();
  sun.castShadow = true;
  sun.shadow.mapSize.set(SUN.shadowMapSize, SUN.shadowMapSize);
  sun.shadow.bias = -0.0005;
  sun.shadow.normalBias = 0.03;
}

// The sky as an environment map for the PBR materials (high quality): the dome rendered
// into a cube and prefiltered by roughness, once, by the renderer that draws the world.
function skyEnvironment(renderer, sky) {
  const pmrem = new THREE.PMREMGenerator(renderer);
  const s = new THREE.Scene();
  const dome = new THREE.Mesh(sky.geometry, sky.material.clone());
  s.add(dome);
  const target = pmrem.fromScene(s, 0, 0.1, 100);
  pmrem.dispose();
  dome.material.dispose();
  return target.texture;
}

// Sky light and sun; at high quality the sky's reflections (scene.environment) take part
// of the hemisphere's share. The sun aims at the work area, its shadow camera fitted by
// castShadows. The shaded sky dome only at high quality; low keeps the plain background.
function addLights(scene, area, look) {
  const hemi = new THREE.HemisphereLight(0xeef4ff, 0x4a4238, look.pbr ? 0.9 : 2.2);
  scene.add(hemi);
  const sun = new THREE.DirectionalLight(0xfff6e8, look.pbr ? 2.2 : 1.8);
  const sunDir = new THREE.Vector3(...SUN.direction).normalize();
  sun.target.position.set(area.center[0], 0, -area.center[1]);
  sun.position.copy(sun.target.position).addScaledVector(sunDir, 100);
  scene.add(sun, sun.target);
  sun.updateMatrixWorld();
  setLights(hemi, sun);
  const sky = look.skyDome ? createSky(sunDir) : null;
  if (sky) scene.add(sky);
  return { sun, sky };
}

function worldMaterials(look) {
  return {
    // both sides: the focus view cuts through piers and the deck, which then look solid
    // (kinds of surface: materials.js; one material each, shared by every mesh of the kind)
    concrete: mat(look, COLORS.concrete, 'concrete', { side: THREE.DoubleSide }), steel: mat(look, COLORS.steel, 'steel'),
    rackBar: mat(look, COLORS.rackBar, 'steel'),
    load: mat(look, COLORS.load, 'wood'), cable1: mat(look, COLORS.cable1, 'steel'), cable2: mat(look, COLORS.cable2),
    bottom: mat(look, COLORS.bottom, 'concrete'), rod: mat(look, COLORS.rod, 'steel'),
    // web/js/models/: colours per vertex, one draw call per part (low) or per kind of surface
    // in the part (high); both sides only for the piers and the deck, which the focus view
    // cuts through
    model: modelMaterial({}, look), damModel: modelMaterial({ side: THREE.DoubleSide }, look),
  };
}

// root turns base (x, y, z) into three's (x, z, -y)
const baseToThree = (v) => [v[0], v[2], -v[1]];
// positions in three's frame for the cameras
const toThree = (p) => new THREE.Vector3(p[0], p[2], -p[1]);

// The dam intake; each piece is a structure that turns see-through when it hides the work
// (occlusion.js), its box in three's frame. Returns the structures.
function addStructures(root, sc, materials) {
  const structures = [];
  const structure = (name, box, obj) => {
    obj.name = name;
    root.add(obj);
    structures.push({ name, box: sceneBoxToOriented(box, baseToThree), objects: [obj] });
  };
  // piers' noses point at the reservoir; the deck's kerb leaves the bay between the piers open
  const upstream = (w) => Math.sign((sc.reservoir?.center_m[0] ?? 1e9) - w.center_m[0]) || 1;
  const wallsY = sc.intake_walls.flatMap((w) => [w.center_m[1] - w.size_m[1] / 2, w.center_m[1] + w.size_m[1] / 2]);
  const bay = sc.deck && wallsY.length ? [Math.min(...wallsY) - sc.deck.center_m[1], Math.max(...wallsY) - sc.deck.center_m[1]] : null;
  const dm = materials.damModel;
  const deckTop = sc.deck ? sc.deck.center_m[2] + sc.deck.size_m[2] / 2 : 0;
  sc.intake_walls.forEach((w, i) => structure(`intake wall ${i + 1}`, w,
    pierMesh(w, dm, upstream(w))));
  if (sc.deck) structure('deck', sc.deck, deckMesh(sc.deck, dm, bay));
  if (sc.intake_floor) structure('intake floor', sc.intake_floor, sceneBox(sc.intake_floor, materials.concrete));
  if (sc.gate) structure('gate', sc.gate, gateMesh(sc.gate, materials.model));
  if (sc.truck_bed) {
    const bedBottom = sc.truck_bed.center_m[2] - sc.truck_bed.size_m[2] / 2;
    const under = sc.deck && bedBottom >= deckTop ? deckTop : bedBottom - 1;
    structure('truck', sc.truck_bed, truckMesh(sc.truck_bed, under, materials.model));
  }
  if (sc.trash_rack) structure('trash rack', sc.trash_rack, trashRack(sc.trash_rack, materials.steel, materials.rackBar));
  return structures;
}

// The water surface: the reservoir's top face if the scene has one, else around the work
// area; the reservoir's bed (or one under the lowest part of the intake) below it. The
// surface is translucent and moving (environment.js), tinted by the turbidity (water-look.js).
function addWater(root, sc, area, materials, look) {
  const res = sc.reservoir;
  const waterSize = res ? [res.size_m[0], res.size_m[1]] : [area.size[0] * 1.6, area.size[1] * 1.6];
  const waterAt = res ? res.center_m : [area.center[0], area.center[1]];
  const wet = sc.water_level_m !== null;  // an empty scene has no water
  const surface = createWater(waterSize, look);
  surface.setLook(waterLook(0));
  const water = surface.mesh;
  water.position.set(waterAt[0], waterAt[1], sc.water_level_m ?? 0);
  water.visible = wet;
  water.rotation.z = res ? res.yaw_deg * DEG : 0;
  root.add(water);
  const bedZ = res ? res.center_m[2] - res.size_m[2] / 2 : area.zMin - 0.01;
  if (wet && bedZ < sc.water_level_m) {
    const bed = new THREE.Mesh(new THREE.PlaneGeometry(...waterSize), materials.bottom);
    bed.position.set(waterAt[0], waterAt[1], bedZ);
    bed.rotation.z = water.rotation.z;
    root.add(bed);
  }
  return { surface, water };
}

// The ground under the carrier: the deck where the swing axis stands on it, else the base
// frame's zero or lower, under the cab's floor; the carrier reaches up to that floor. And
// the operator's eye: front right of the cab, under its roof, in the superstructure's frame.
function carrierSite(crane, sc) {
  const cabLink = crane.links.swing_cab;
  const cabBox = cabLink.box_m;
  const cabFloor = crane.d1_m + cabLink.com_m[1] - cabBox[1] / 2;  // frame 1: y up, origin at d1
  const deck = sc.deck;
  const onDeck = deck && Math.abs(deck.center_m[0]) <= deck.size_m[0] / 2 && Math.abs(deck.center_m[1]) <= deck.size_m[1] / 2;
  const ground = onDeck ? deck.center_m[2] + deck.size_m[2] / 2 : Math.min(0, cabFloor - 1);
  const carrierTop = Math.max(cabFloor, ground + 0.2);
  const eyeLocal = [
    cabLink.com_m[0] + cabBox[0] * 0.3,
    cabLink.com_m[1] + cabBox[1] * 0.45,
    cabLink.com_m[2] + cabBox[2] * 0.3,
  ];
  return { ground, carrierTop, eyeLocal };
}

// The machine, each part in its own frame, placed by the frame's pose for it: the carrier
// (with its ring and outriggers) turned by the tilt, the links in D-H frames 1-3, the clam's
// parts and the boom cylinder. Returns the parts' groups by name.
function addMachine(root, hello, materials, site) {
  const machine = hello.machine;
  const group = Object.fromEntries(['carrier', 'superstructure', 'boom_base', 'fly'].map((n) => [n, partGroup(root, n)]));
  const m = buildCrane(machine, { ground: site.ground, carrierTop: site.carrierTop, material: materials.model,
    eyeLocal: site.eyeLocal });
  group.carrier.add(m.carrier);
  group.superstructure.add(m.superstructure);
  group.boom_base.add(m.boomBase);
  group.fly.add(m.fly);
  Object.assign(group, clamModel(machine.clam, materials, root));
  addBoomCylinder(root, machine.crane.boom_cylinder, hello.parts, materials, group);
  return group;
}

// The boom cylinder, when the server sends it (hello.machine.crane.boom_cylinder and the
// parts boom_cylinder, boom_rod): a barrel from the base pivot and a rod from the rod eye,
// each along its frame's +z towards the other pivot, each as long as the cylinder at its
// shortest, so they overlap at every boom angle.
function addBoomCylinder(root, cyl, parts, materials, group) {
  if (!cyl || !parts?.includes('boom_cylinder') || !parts.includes('boom_rod')) return;
  const along = (r, length, material) => {
    const geo = new THREE.CylinderGeometry(r, r, length, 16);
    geo.rotateX(Math.PI / 2);          // its axis from y to z
    geo.translate(0, 0, length / 2);   // from the pivot on
    return new THREE.Mesh(geo, material);
  };
  group.boom_cylinder = partGroup(root, 'boom_cylinder');
  group.boom_cylinder.add(along(cyl.bore_m * VISUAL.barrelPerBore / 2, cyl.retracted_m, materials.steel));
  group.boom_rod = partGroup(root, 'boom_rod');
  group.boom_rod.add(along(cyl.bore_m * VISUAL.rodPerBore / 2, cyl.retracted_m, materials.rod));
}

// The cables: from the drum over the foot sheave along the boom and round the tip sheave
// (where the hello reeves them: rope-path.js; an older hello, from the tip only), leaving
// the tip either side of the boom and hanging to A (cable 1) and C (cable 2), bowing to
// opposite sides when slack; one tube each for the whole rope. Where the closing rope runs
// n parts between the head and the block (clam.closing_parts), cable 2 hangs to A and its
// parts go on from A to C as one straight stretch (n |AC| of its length). Returns what
// placeRopes needs to draw them.
function addRopes(root, hello, materials) {
  const { machine } = hello;
  const sheaveR = Math.max(...machine.cables.map((c) => c.drum_radius_m));
  const ropeR = sheaveR * VISUAL.ropeRadiusPerDrumRadius;
  const closingParts = machine.clam.closing_parts ?? 1;
  const tackle = closingParts > 1 ? 1 : 0;
  const reeving = reevings(machine, hello.parts).slice(0, 2);
  const reeved = [0, 1].map((i) => (reeving[i] ? routeLength(reeving[i].length, SHEAVES.arcPoints) - 1 : 0));
  const cables = [0, 1].map((i) => makeCable(ropeR, materials[`cable${i + 1}`],
    VISUAL.cableRings + reeved[i] + (i === 1 ? tackle : 0)));
  const ropeRadii = {
    drum: machine.cables.map((c) => c.drum_radius_m),
    foot: machine.cables.map((c) => c.drum_radius_m * SHEAVES.footPerDrum),  // as crane-model.js draws it
  };
  cables.forEach((c, i) => {
    c.mesh.name = `cable ${i + 1}`;
    root.add(c.mesh);
  });
  const groove = machine.crane.links.telescopic.box_m[1] * SHEAVES.groovePerFlyWidth;
  return { cables, reeving, ropeRadii, sheaveR, closingParts, tackle, groove };
}

// options.look: quality.js's qualitySettings (default: low). The parts of the world and
// what changes as frames arrive go in one object (w) that the drawing functions below share.
export function buildWorld(hello, { look = qualitySettings('low') } = {}) {
  const { machine, scene: sc } = hello;
  const area = workArea(machine, sc);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(COLORS.sky);
  const root = new THREE.Group();
  root.rotation.x = -Math.PI / 2;  // base (x, y, z) -> three (x, z, -y)
  scene.add(root);
  const { sun, sky } = addLights(scene, area, look);
  const materials = worldMaterials(look);
  const structures = addStructures(root, sc, materials);
  const { surface, water } = addWater(root, sc, area, materials, look);
  const site = carrierSite(machine.crane, sc);
  const group = addMachine(root, hello, materials, site);
  const ropes = addRopes(root, hello, materials);
  const load = heldLoad(materials);
  root.add(load);
  const loads = buildLoads(root, sc.loads, look);
  if (look.shadows) castShadows({ root, sun, area, water, baseToThree });

  // each drawn part's index in display.parts (hello.parts' order); the machine is not
  // drawn without them all
  const at = partIndex(hello.parts);
  const missing = at ? PARTS.filter((n) => at[n] === undefined) : PARTS;
  for (const g of Object.values(group)) g.visible = false;
  const w = {
    hello, scene, root, area, look, sky, materials, structures, surface, water, site, group, ropes, load, loads,
    at, missing, nParts: hello.parts?.length ?? 0,
    state: { frame: null, slack: [0, 0], sag: [0, 0], water: waterLook(0), tiltDeg: 0,
      parts: null, tip: null, a: null, c: null, u: null, w: null, heading: [1, 0, 0] },
    // points of the clam and its load the cameras must see (occlusion.js), in three's frame
    targets: { points: [], count: 0 },
    clamPoints: { a: null, c: null, hinges: [[0, 0, 0], [0, 0, 0]], lips: [[0, 0, 0], [0, 0, 0]] },
  };
  return worldInterface(w);
}

// A frame arrived: what is not a pose (the water, the loads' states, the tilt's reading).
// Returns whether it carries a pose for every part (else the machine stays where it was).
function updateWorld(w, frame) {
  const { state } = w;
  // murky water (an instructor's condition): the surface hides what is under it
  if (frame.turbidity !== state.water.turbidity) {
    state.water = waterLook(frame.turbidity);
    w.surface.setLook(state.water);
  }
  state.tiltDeg = frame.tilt_axis ? frame.tilt_deg : 0;
  w.loads.update(frame.loads, frame.held_load ?? null);
  state.frame = frame;
  return w.missing.length === 0 && frame.parts?.length === w.nParts;
}

// Draw the machine at sampled poses: motion.js's sample of [...parts, ...loads] and the
// ropes' lengths (the last frame's, carried on between frames).
function placeWorld(w, poses, ropeLengths) {
  const { state, at } = w;
  const frame = state.frame;
  if (!frame || w.missing.length) return;
  const P = (name) => poses[at[name]];
  for (const [name, g] of Object.entries(w.group)) {
    place(g, P(name));
    g.visible = true;
  }
  w.loads.place(poses.slice(w.nParts));
  const tip = P('fly'), head = P('clam_head');
  const a = head.slice(0, 3), c = P('shell_right').slice(0, 3);
  const u = poseAxis(head, 0), z = poseAxis(head, 2);
  const heading = poseAxis(P('superstructure'), 0);
  Object.assign(state, { parts: poses, tip: tip.slice(0, 3), a, c, u, w: z, heading });
  placeRopes(w, poses, ropeLengths);
  placeHeldBall(w, frame, c, z);
  aimTargets(w, poses, frame);
}

// Cable exits at the tip, offset across the boom (the fly's y axis); a reeved rope runs in
// that groove from its drum, over the foot sheave and round the tip sheave.
function placeRopes(w, poses, ropeLengths) {
  const { state, ropes } = w;
  const { a, c, heading } = state;
  const tip = poses[w.at.fly];
  const across = poseAxis(tip, 1);
  const off = ropes.groove;
  const ends = [a, ropes.tackle ? a : c];
  const inTackle = ropes.tackle ? ropes.closingParts * Math.hypot(c[0] - a[0], c[1] - a[1], c[2] - a[2]) : 0;
  const sides = [heading, heading.map((x) => -x)];
  const anchors = spreadAnchors(ropeAnchors(ropes.reeving, poses, w.at), across, [off, -off]);
  for (let i = 0; i < 2; i++) {
    const sgn = i === 0 ? 1 : -1;
    const bottom = ends[i].map((x, k) => x + sgn * off * 0.3 * across[k]);
    const route = anchors[i] && ropeRoute(anchors[i], bottom, { drumRadius: ropes.ropeRadii.drum[i],
      sheaveRadius: ropes.ropeRadii.foot[i], tipRadius: ropes.sheaveR, arcPoints: SHEAVES.arcPoints });
    const top = route ? route[route.length - 1] : [0, 1, 2].map((k) => tip[k] + sgn * off * across[k]);
    const hanging = i === 1 ? ropeLengths[i] - inTackle : ropeLengths[i];
    const curve = cableCurve(top, bottom, hanging, sides[i],
      { sagPerSlack: VISUAL.sagPerSlack, segments: VISUAL.cableRings - 1 });
    const points = route ? route.concat(curve.points.slice(1)) : curve.points;
    if (i === 1 && ropes.tackle) points.push(c.map((x, k) => x + sgn * off * 0.3 * across[k]));
    ropes.cables[i].update(points);
    state.slack[i] = curve.slack;
    state.sag[i] = curve.sag;
  }
}

// A held load the world does not report (a 2001-style frame): a ball of wood between the
// jaws, just under C along the clam's z axis (z, up the clam).
function placeHeldBall(w, frame, c, z) {
  const { load } = w;
  const mass = frame.values.load_kg;
  load.visible = mass > 0 && frame.loads.length === 0;
  if (load.visible) {
    const r = Math.cbrt((3 * mass) / (4 * Math.PI * VISUAL.loadDensity_kg_m3));
    load.scale.setScalar(r);
    load.position.set(...c.map((x, k) => x - z[k] * r * 0.8));
  }
}

// The points the cameras must keep in sight (occlusion.js): the clam's pins and lips and
// the held load, turned into three's frame in place.
function aimTargets(w, poses, frame) {
  const { load, clamPoints, targets, state } = w;
  const P = (name) => poses[w.at[name]];
  const { link1_length_m: l1, lip_length_m: lip } = w.hello.machine.clam;
  const heldPose = poses[w.nParts + (frame.held_load ?? -1)];
  const held = frame.held_load !== null && heldPose ? heldPose.slice(0, 3)
    : (load.visible ? [load.position.x, load.position.y, load.position.z] : null);
  clamPoints.a = state.a;
  clamPoints.c = state.c;
  posePoint(P('arm_right'), [0, 0, -l1], clamPoints.hinges[0]);
  posePoint(P('arm_left'), [0, 0, -l1], clamPoints.hinges[1]);
  posePoint(P('shell_right'), [0, 0, -lip], clamPoints.lips[0]);
  posePoint(P('shell_left'), [0, 0, -lip], clamPoints.lips[1]);
  targets.count = clamTargets(clamPoints, held, targets.points);
  for (let i = 0; i < targets.count; i++) {
    const t = targets.points[i], y = t[1];
    t[1] = t[2];
    t[2] = -y;
  }
}

// What views.js, main.js and the tests use of a world.
function worldInterface(w) {
  const { scene, look, sky, state, at, hello } = w;
  const { machine, scene: sc } = hello;
  const clam = machine.clam;
  return {
    scene, root: w.root, water: w.water, area: w.area, machine, sceneInfo: sc, state,
    update: (frame) => updateWorld(w, frame),
    place: (poses, ropeLengths) => placeWorld(w, poses, ropeLengths),
    // the sky dome, or null (views.js hides it for the top view and under water), the quality drawn
    sky, look,
    // the water's waves at time t [s]
    animate: (t) => w.surface.animate(t),
    // before the first drawing, with the renderer: at high quality the sky lights the PBR
    // surfaces and is mirrored by them (scene.environment)
    prepare(renderer) {
      if (look.pbr && sky && !scene.environment) {
        scene.environment = skyEnvironment(renderer, sky);
        scene.environmentIntensity = 0.6;
      }
    },
    structures: w.structures, targets: w.targets,
    // the parts this world draws that hello.parts does not name (none: all drawn)
    missingParts: w.missing,
    // contact markers (markers.js) at `now` [ms]; the number drawn
    updateMarkers: (markers, now) => w.loads.updateMarkers(markers, now),
    counts: () => w.loads.counts(),
    waterLevel: sc.water_level_m ?? w.site.ground,
    groundLevel: w.site.ground,
    toThree,
    colors: COLORS,
    clamSize: clam.link1_length_m + clam.link2_length_m + clam.lip_length_m,
    ...cameraPoints(state, at, w.site.eyeLocal),
    dispose: () => disposeWorld(w),
  };
}

// Points and directions the cameras follow, in three's frame.
function cameraPoints(state, at, eyeLocal) {
  return {
    // operator's eye: front right of the cab, under its roof, in the superstructure's frame
    // (which tips with the machine)
    eye() {
      if (!state.parts) return null;
      return toThree(posePoint(state.parts[at.superstructure], eyeLocal));
    },
    clamCenter() {
      if (!state.a) return null;
      const { a, c } = state;
      return toThree(a.map((x, k) => (x + c[k]) / 2));
    },
    // across the clam's plane (minus its y, the buckets' width)
    clamAcross() {
      if (!state.parts) return new THREE.Vector3(0, 0, 1);
      return toThree(poseAxis(state.parts[at.clam_head], 1).map((x) => -x));
    },
    heading() {
      return toThree(state.heading);
    },
    tip() {
      return state.tip ? toThree(state.tip) : null;
    },
  };
}

function disposeWorld(w) {
  const { scene, sky } = w;
  scene.traverse((o) => {
    o.geometry?.dispose?.();
  });
  for (const m of Object.values(w.materials)) for (const x of m.isMaterial ? [m] : Object.values(m)) x.dispose();
  w.surface.dispose();
  sky?.geometry.dispose();
  sky?.material.dispose();
  scene.environment?.dispose();
  w.loads.dispose();
}
