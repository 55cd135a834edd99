// Pieces of a model merged into one mesh: each piece a primitive placed in the part's frame
// and painted by a vertex colour, so a part with many pieces is one draw call with one
// material (software GL pays per pixel and per draw call, not per triangle at these counts).
// Each piece is of a kind of surface (materials.js: paint, steel, concrete, rubber, glass,
// wood): given one material per kind (high quality) the mesh draws one group per kind
// present; given a single material (low quality) it draws in one call.

import * as THREE from 'three';
import { mergeGeometries } from 'three/addons/utils/BufferGeometryUtils.js';
import { GouraudMaterial, surfaceMaterial, KINDS } from '../materials.js';

// The kind of surface of each colour of a model's COLORS: names -> kind, 'paint' for the rest.
export function surfaceKinds(colors, kinds) {
  const m = new Map();
  for (const [name, hex] of Object.entries(colors)) m.set(hex, kinds[name] ?? 'paint');
  return m;
}

// Every vertex of geometry g painted the colour hex (a merged mesh's vertex colours).
export function paintVertices(g, hex) {
  const color = new THREE.Color(hex);
  const c = new Float32Array(g.getAttribute('position').count * 3);
  for (let i = 0; i < c.length; i += 3) {
    c[i] = color.r;
    c[i + 1] = color.g;
    c[i + 2] = color.b;
  }
  g.setAttribute('color', new THREE.BufferAttribute(c, 3));
}

// Collects pieces; mesh(material) merges them. Positions are in the part's frame.
// kindOf: a piece's colour -> its kind of surface (surfaceKinds), 'paint' when absent.
export function pieces(kindOf = null) {
  const list = [];
  const add = (geometry, hex, at = [0, 0, 0], rotate = null) => {
    if (rotate) rotate(geometry);
    geometry.translate(at[0], at[1], at[2]);
    const g = geometry;  // indexed, as three builds its primitives: fewer vertices to shade
    g.deleteAttribute('uv');
    paintVertices(g, hex);
    g.userData.kind = kindOf?.get(hex) ?? 'paint';
    list.push(g);
    return g;
  };
  return {
    // a box of size [x, y, z] centred at `at`
    box(size, hex, at) {
      return add(new THREE.BoxGeometry(size[0], size[1], size[2]), hex, at);
    },
    // a box between two corners
    span(min, max, hex) {
      return add(new THREE.BoxGeometry(max[0] - min[0], max[1] - min[1], max[2] - min[2]), hex,
        [0, 1, 2].map((k) => (min[k] + max[k]) / 2));
    },
    // a cylinder of radius r and length `length` along axis 'x', 'y' or 'z', centred at `at`
    cylinder(r, length, axis, hex, at, segments = 12) {
      const turn = { x: (g) => g.rotateZ(Math.PI / 2), y: null, z: (g) => g.rotateX(Math.PI / 2) }[axis];
      return add(new THREE.CylinderGeometry(r, r, length, segments), hex, at, turn);
    },
    get count() {
      return list.length;
    },
    // material: one Material for every piece, or {kind: Material} with one per kind present
    mesh(material) {
      const perKind = !material.isMaterial;
      // the pieces of one kind next to each other, in KINDS' order
      const sorted = perKind ? [...list].sort((a, b) => KINDS.indexOf(a.userData.kind) - KINDS.indexOf(b.userData.kind)) : list;
      const geometry = mergeGeometries(sorted, false);
      const used = [];
      if (perKind) {
        let start = 0;
        for (const g of sorted) {
          const n = (g.index ?? g.getAttribute('position')).count, kind = g.userData.kind;
          if (used.at(-1) !== kind) {
            used.push(kind);
            geometry.addGroup(start, 0, used.length - 1);
          }
          geometry.groups.at(-1).count += n;
          start += n;
        }
      }
      for (const g of list) g.dispose();
      geometry.computeBoundingBox();
      geometry.computeBoundingSphere();
      if (perKind && used.length === 1) geometry.clearGroups();
      const mats = perKind ? used.map((k) => material[k] ?? material.paint) : material;
      return new THREE.Mesh(geometry, perKind && mats.length === 1 ? mats[0] : mats);
    },
  };
}

// One material for every merged model, colours per vertex: at low quality (or without a
// look) lit per vertex; at high quality one MeshStandardMaterial per kind of surface.
// extra: more options for each (e.g. side).
export function modelMaterial(extra = {}, look = null) {
  if (!look?.pbr) return new GouraudMaterial({ vertexColors: true, ...extra });
  return Object.fromEntries(KINDS.map((k) => [k, surfaceMaterial(k, look, { vertexColors: true, ...extra })]));
}
