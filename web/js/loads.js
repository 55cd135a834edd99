// The loads of hello.scene.loads drawn in the base frame (under scene.js's root, z up) and
// posed from each display frame, plus the contact markers (markers.js) as rings that
// always face the camera. Logs (cylinders) in bark, spheres as stumps or boulders (by
// density), boxes as crates; the load in the jaws glows.

import * as THREE from 'three';
import { quatToThree } from './geometry.js';
import { markerLook } from './markers.js';
import { surfaceMaterial } from './materials.js';

const LOOK = {
  bark: 0x5b3a22, endGrain: 0xc89f6a, stump: 0x6e4a2c, boulder: 0x7d7a74, crate: 0xb08850,
  crateEdge: 0x4a3520, held: 0xffb020, heldIntensity: 0.55, contact: 0x3a2a1a,
  rockDensity: 1500,   // kg/m^3: a sphere heavier than this is a boulder, else a stump
};

function sphereVolume(r) {
  return (4 / 3) * Math.PI * r ** 3;
}

// One mesh (or group) per load definition, its local x the cylinder's axis; materials of
// the page's quality (look: quality.js's settings), wood, or rough stone for a boulder.
function loadObject(def, look) {
  const group = new THREE.Group();
  group.name = `load:${def.id}`;
  group.visible = false;  // until a frame poses it
  const materials = [];
  const m = (color, extra = {}, kind = 'wood') => {
    const mat = surfaceMaterial(kind, look, { color, ...extra });
    materials.push(mat);
    return mat;
  };
  if (def.shape === 'cylinder') {
    const geo = new THREE.CylinderGeometry(def.radius_m, def.radius_m * 0.92, def.length_m, 18, 1);
    geo.rotateZ(-Math.PI / 2);  // three's cylinder runs along y; the load's axis is x
    group.add(new THREE.Mesh(geo, [m(LOOK.bark), m(LOOK.endGrain), m(LOOK.endGrain)]));
  } else if (def.shape === 'sphere') {
    const rock = def.mass_kg / sphereVolume(def.radius_m) > LOOK.rockDensity;
    const geo = rock ? new THREE.IcosahedronGeometry(def.radius_m, 1) : new THREE.SphereGeometry(def.radius_m, 16, 12);
    if (rock) geo.computeVertexNormals();   // one normal per face: faceted at either quality
    group.add(new THREE.Mesh(geo, rock ? m(LOOK.boulder, look?.pbr ? { flatShading: true } : {}, 'concrete') : m(LOOK.stump)));
    group.userData.kind = rock ? 'boulder' : 'stump';
  } else {
    const geo = new THREE.BoxGeometry(...def.size_m);
    group.add(new THREE.Mesh(geo, m(LOOK.crate)));
    const edges = new THREE.LineSegments(new THREE.EdgesGeometry(geo), new THREE.LineBasicMaterial({ color: LOOK.crateEdge }));
    materials.push(edges.material);
    group.add(edges);
  }
  group.userData.kind ??= def.shape === 'cylinder' ? 'log' : 'crate';
  group.userData.materials = materials;
  return group;
}

function setHeld(obj, held) {
  if (obj.userData.held === held) return;
  obj.userData.held = held;
  for (const mat of obj.userData.materials) {
    if (!mat.emissive) continue;
    mat.emissive.setHex(held ? LOOK.held : 0x000000);
    mat.emissiveIntensity = held ? LOOK.heldIntensity : 1;
  }
}

// A soft ring on a canvas, tinted per marker through the sprite's colour.
function ringTexture() {
  const size = 128;
  const c = document.createElement('canvas');
  c.width = c.height = size;
  const g = c.getContext('2d');
  const grad = g.createRadialGradient(size / 2, size / 2, size * 0.18, size / 2, size / 2, size / 2);
  grad.addColorStop(0, 'rgba(255,255,255,0.25)');
  grad.addColorStop(0.55, 'rgba(255,255,255,0.35)');
  grad.addColorStop(0.72, 'rgba(255,255,255,1)');
  grad.addColorStop(0.86, 'rgba(255,255,255,0.9)');
  grad.addColorStop(1, 'rgba(255,255,255,0)');
  g.fillStyle = grad;
  g.fillRect(0, 0, size, size);
  const t = new THREE.CanvasTexture(c);
  t.colorSpace = THREE.SRGBColorSpace;
  return t;
}

// The scene's loads and the contact markers, under root; their state lives in one object
// (L) that the functions below share.
export function buildLoads(root, sceneLoads, look = null) {
  const group = new THREE.Group();
  group.name = 'loads';
  root.add(group);
  const defs = sceneLoads ?? [];
  const objects = defs.map((def) => {
    const o = loadObject(def, look);
    group.add(o);
    return o;
  });
  const markerGroup = new THREE.Group();
  markerGroup.name = 'contact-markers';
  markerGroup.renderOrder = 10;
  root.add(markerGroup);
  const L = {
    objects,
    byId: new Map(defs.map((d, i) => [String(d.id), i])),
    q: new THREE.Quaternion(),
    held: null,
    markerGroup,
    texture: ringTexture(),
    sprites: [],
    liveMarkers: 0,
    slots: [],   // the last frame's loads, in its order: their objects' indices
  };
  return {
    // frame.loads: [{id, position_m, orientation [w,x,y,z], held, ...}]; heldIndex from frame.held_load
    update: (frameLoads, heldIndex) => updateLoads(L, frameLoads, heldIndex),
    // between frames: the last frame's loads at poses [x, y, z, qw, qx, qy, qz] (motion.js)
    place(poses) {
      for (let i = 0; i < L.slots.length && i < poses.length; i++) {
        const o = objects[L.slots[i]], p = poses[i];
        if (!o) continue;
        o.position.set(p[0], p[1], p[2]);
        o.quaternion.set(p[4], p[5], p[6], p[3]);
      }
    },
    // markers from markers.updateMarkers; now in ms
    updateMarkers: (markers, now) => updateMarkers(L, markers, now),
    counts() {
      return {
        loadMeshes: objects.length,
        loadsVisible: objects.filter((o) => o.visible).length,
        kinds: objects.map((o) => o.userData.kind),
        heldLoad: L.held,
        markers: L.liveMarkers,
      };
    },
    dispose() {
      L.texture.dispose();
      for (const s of L.sprites) s.material.dispose();
      for (const o of objects) for (const mat of o.userData.materials) mat.dispose();
    },
  };
}

function updateLoads(L, frameLoads, heldIndex) {
  L.held = null;
  L.slots.length = 0;
  (frameLoads ?? []).forEach((l, i) => {
    const k = L.byId.get(String(l.id)) ?? (i < L.objects.length ? i : -1);
    L.slots.push(k);
    if (k < 0) return;
    const o = L.objects[k];
    o.visible = true;
    o.position.set(...l.position_m);
    o.quaternion.copy(L.q.set(...quatToThree(l.orientation)));
    const isHeld = Boolean(l.held) || heldIndex === i;
    setHeld(o, isHeld);
    if (isHeld) L.held = k;
  });
}

// the i-th marker's sprite, made when first needed
function sprite(L, i) {
  while (L.sprites.length <= i) {
    const s = new THREE.Sprite(new THREE.SpriteMaterial({ map: L.texture, transparent: true, depthTest: false,
      depthWrite: false }));
    s.renderOrder = 10;
    L.markerGroup.add(s);
    L.sprites.push(s);
  }
  return L.sprites[i];
}

function updateMarkers(L, markers, now) {
  let n = 0;
  for (const m of markers) {
    const look = markerLook(m, now);
    if (!look.alive) continue;
    const s = sprite(L, n++);
    s.visible = true;
    s.position.set(...m.position_m);
    s.scale.setScalar(look.radius * 2);
    s.material.color.setRGB(...look.color);
    s.material.opacity = look.opacity;
  }
  for (let i = n; i < L.sprites.length; i++) L.sprites[i].visible = false;
  L.liveMarkers = n;
  return n;
}
