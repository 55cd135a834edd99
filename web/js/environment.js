// The world around the work: a procedural sky and the water's moving surface, at the page's
// quality (quality.js). No textures from outside: the sky is a gradient worked out in a
// shader, the waves a normal map computed here.
// - Sky (high quality): a dome drawn at the far plane (where nothing else was drawn), blue
//   overhead, pale at the horizon, hazy below it, brighter towards the sun, with a sun disc.
//   Low quality keeps a plain sky colour (the background): even a dome coloured per vertex
//   cost software WebGL about 15 % of the Full view's drawing time.
// - Water: translucent, its colour and opacity from water-look.js (the turbidity). High: a
//   glossy PBR surface whose normal map drifts (small waves that catch the sun); low: a
//   coarse grid lit per vertex whose brightness ripples slowly with time (RIPPLE).

import * as THREE from 'three';
import { GouraudMaterial } from './materials.js';

export const SKY = {
  zenith: 0x3f78b8, horizon: 0xcfe0ec, below: 0x9aa9b0, glow: 0xfff2d6,
  glowPower: 6,       // how tight the glow around the sun is
  glowStrength: 0.35,
  discCos: 0.9995,    // the sun's disc: within ~1.8 degrees (high quality only)
};

const SKY_VERTEX = `
uniform vec3 zenith, horizon, below, glow, sunDir;
uniform float glowPower, glowStrength;
varying vec3 vDir;
void main() {
  vDir = position;
  // turned with the camera, never moved: the dome is always around the eye, at the far plane
  vec4 p = projectionMatrix * vec4( mat3( viewMatrix ) * position, 1.0 );
  gl_Position = p.xyww;
}`;

const SKY_FRAGMENT = `
uniform vec3 zenith, horizon, below, glow, sunDir;
uniform float glowPower, glowStrength, discCos;
varying vec3 vDir;
vec3 skyColor( vec3 d ) {
  float h = d.y;
  vec3 c = h > 0.0 ? mix( horizon, zenith, pow( h, 0.6 ) ) : mix( horizon, below, min( 1.0, -h * 6.0 ) );
  return c + glow * glowStrength * pow( max( dot( d, sunDir ), 0.0 ), glowPower );
}
void main() {
  vec3 d = normalize( vDir );
  vec3 c = skyColor( d ) + glow * smoothstep( discCos - 0.0004, discCos, dot( d, sunDir ) );
  gl_FragColor = linearToOutputTexel( vec4( c, 1.0 ) );
}`;

// sunDir: a Vector3 towards the sun (three's world frame).
export function createSky(sunDir) {
  const u = (hex) => ({ value: new THREE.Color(hex) });
  const material = new THREE.ShaderMaterial({
    uniforms: { zenith: u(SKY.zenith), horizon: u(SKY.horizon), below: u(SKY.below), glow: u(SKY.glow),
      sunDir: { value: sunDir.clone().normalize() }, glowPower: { value: SKY.glowPower },
      glowStrength: { value: SKY.glowStrength }, discCos: { value: SKY.discCos } },
    vertexShader: SKY_VERTEX, fragmentShader: SKY_FRAGMENT,
    side: THREE.BackSide, depthWrite: false,
  });
  const mesh = new THREE.Mesh(new THREE.SphereGeometry(1, 32, 16), material);
  mesh.name = 'sky';
  mesh.frustumCulled = false;
  mesh.renderOrder = 1;   // after the opaque world: only the pixels it left are shaded
  mesh.castShadow = mesh.receiveShadow = false;
  return mesh;
}

// A tileable normal map of small crossing waves (size x size texels), as a DataTexture.
function waveNormals(size = 128) {
  const data = new Uint8Array(size * size * 4);
  const waves = [[1, 2, 0.5], [3, -1, 0.3], [-2, 3, 0.25], [5, 4, 0.12], [-7, 2, 0.08]];   // [kx, ky] cycles per tile, amplitude
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      let dx = 0, dy = 0;
      for (const [kx, ky, a] of waves) {
        const ph = 2 * Math.PI * (kx * i + ky * j) / size;
        dx += a * kx * Math.cos(ph);
        dy += a * ky * Math.cos(ph);
      }
      const n = new THREE.Vector3(-dx * 0.08, -dy * 0.08, 1).normalize();
      const k = (j * size + i) * 4;
      data[k] = (n.x * 0.5 + 0.5) * 255;
      data[k + 1] = (n.y * 0.5 + 0.5) * 255;
      data[k + 2] = (n.z * 0.5 + 0.5) * 255;
      data[k + 3] = 255;
    }
  }
  const t = new THREE.DataTexture(data, size, size);
  t.wrapS = t.wrapT = THREE.RepeatWrapping;
  t.magFilter = THREE.LinearFilter;
  t.minFilter = THREE.LinearMipmapLinearFilter;
  t.generateMipmaps = true;
  t.needsUpdate = true;
  return t;
}

// The low quality's ripples: three waves of brightness, amplitude a, k in rad/m along
// three's (x, z), w in rad/s. Their wavelengths (2 pi / |k|, 14-21 m) are at least twice the grid's vertex
// spacing (RIPPLE.spacing_m), so the grid samples them without aliasing: a finer grid cost
// software WebGL a fifth of the Total view's drawing time (the surface is drawn in each of its
// four viewports).
export const RIPPLE = {
  a: [0.5, 0.35, 0.15],
  k: [[0.3, 0.17], [-0.12, 0.33], [0.36, -0.26]],
  w: [0.9, 1.2, 1.6],
  spacing_m: 6,
  maxCells: 16,
};

// a number as a GLSL float literal (always with a decimal point)
const glsl = (x) => Number(x).toFixed(4);

// Water lit per vertex (GouraudMaterial) whose brightness ripples with `time` [s].
class RippleWaterMaterial extends GouraudMaterial {
  constructor(params) {
    super(params);
    this.time = { value: 0 };
  }

  onBeforeCompile(shader) {
    super.onBeforeCompile(shader);
    shader.uniforms.time = this.time;
    shader.vertexShader = shader.vertexShader
      .replace('#include <common>', '#include <common>\nuniform float time;\nvarying float vRipple;')
      .replace('#include <fog_vertex>', `#include <fog_vertex>
vec4 wp = modelMatrix * vec4( position, 1.0 );
vRipple = ${RIPPLE.k.map(([kx, kz], i) =>
    `${glsl(RIPPLE.a[i])} * sin( ${glsl(kx)} * wp.x + ${glsl(kz)} * wp.z + ${glsl(RIPPLE.w[i])} * time )`).join(' + ')};`);
    shader.fragmentShader = shader.fragmentShader
      .replace('#include <common>', '#include <common>\nvarying float vRipple;')
      .replace('#include <opaque_fragment>', 'outgoingLight *= 1.0 + 0.12 * vRipple;\n#include <opaque_fragment>');
  }
}

// The water's surface, size [x, y] in the base frame's plane (a PlaneGeometry's x-y), at
// look.waterWaves (high) or not. Returns {mesh, setLook(waterLook), animate(seconds)}.
export function createWater(size, look) {
  const common = { transparent: true, opacity: 0.5, side: THREE.DoubleSide, depthWrite: false };
  let material, animate;
  if (look?.waterWaves) {
    const normalMap = waveNormals();
    const tile = 6;   // metres per tile of the wave map
    normalMap.repeat.set(size[0] / tile, size[1] / tile);
    material = new THREE.MeshStandardMaterial({ ...common, roughness: 0.08, metalness: 0, normalMap,
      normalScale: new THREE.Vector2(0.6, 0.6), envMapIntensity: 1.2 });
    const geometry = new THREE.PlaneGeometry(size[0], size[1]);
    animate = (t) => {
      // a slow drift with a sway across it: the waves move, never the same twice in a while
      normalMap.offset.set(0.035 * t + 0.05 * Math.sin(0.31 * t), 0.021 * t + 0.04 * Math.sin(0.23 * t + 1));
    };
    const mesh = new THREE.Mesh(geometry, material);
    return water(mesh, animate);
  }
  material = new RippleWaterMaterial(common);
  // a vertex every RIPPLE.spacing_m, at most maxCells a side: the ripples are computed per vertex
  const cells = (s) => Math.max(1, Math.min(RIPPLE.maxCells, Math.round(s / RIPPLE.spacing_m)));
  const mesh = new THREE.Mesh(new THREE.PlaneGeometry(size[0], size[1], cells(size[0]), cells(size[1])), material);
  animate = (t) => { material.time.value = t % 1000; };
  return water(mesh, animate);
}

function water(mesh, animate) {
  mesh.name = 'water';
  mesh.renderOrder = 2;
  mesh.castShadow = mesh.receiveShadow = false;
  return {
    mesh,
    // water-look.js's look: the surface's opacity and colour
    setLook(w) {
      mesh.material.opacity = w.surfaceOpacity;
      mesh.material.color.setHex(w.surfaceColor);
    },
    animate,
    dispose() {
      mesh.geometry.dispose();
      mesh.material.normalMap?.dispose();
      mesh.material.dispose();
    },
  };
}
