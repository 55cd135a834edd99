// Pieces of a model merged into one mesh: each piece a primitive placed in the part's frame
// and painted by a vertex colour, so a part with many pieces is one draw call with one
// material (software GL pays per draw call, not per triangle at these counts).

import * as THREE from 'three';
import { mergeGeometries } from 'three/addons/utils/BufferGeometryUtils.js';

// Collects pieces; mesh(material) merges them. Positions are in the part's frame.
export function pieces() {
  const list = [];
  const color = new THREE.Color();
  const add = (geometry, hex, at = [0, 0, 0], rotate = null) => {
    if (rotate) rotate(geometry);
    geometry.translate(at[0], at[1], at[2]);
    const g = geometry;  // indexed, as three builds its primitives: fewer vertices to shade
    g.deleteAttribute('uv');
    color.setHex(hex);
    const c = new Float32Array(g.getAttribute('position').count * 3);
    for (let i = 0; i < c.length; i += 3) {
      c[i] = color.r;
      c[i + 1] = color.g;
      c[i + 2] = color.b;
    }
    g.setAttribute('color', new THREE.BufferAttribute(c, 3));
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
    mesh(material) {
      const geometry = mergeGeometries(list, false);
      for (const g of list) g.dispose();
      geometry.computeBoundingBox();
      geometry.computeBoundingSphere();
      return new THREE.Mesh(geometry, material);
    },
  };
}

// One material for every merged model: Lambert (cheap in software GL), colours per vertex.
export function modelMaterial(extra = {}) {
  return new THREE.MeshLambertMaterial({ vertexColors: true, ...extra });
}
