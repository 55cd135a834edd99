// Materials by kind of surface, at the page's quality (quality.js):
// - high: MeshStandardMaterial (PBR) with the surface's roughness and metalness: painted
//   steel, bare steel, concrete, rubber, glass, wood;
// - low: GouraudMaterial, lit per vertex, one for all kinds. Software WebGL spends its time
//   per pixel (docs/web-client.md, "Quality"), so the lighting Lambert does per pixel is done
//   per vertex here: the same light on flat faces (directional sun plus hemisphere), a
//   little coarser on curved ones.
// The sun and sky lights' values are shared uniforms (LIGHT), set once by scene.js.

import * as THREE from 'three';

// roughness, metalness per kind of surface (high quality)
export const SURFACES = {
  paint: { roughness: 0.5, metalness: 0.25 },     // painted steel: crane yellow, carrier grey
  steel: { roughness: 0.4, metalness: 0.75 },     // bare steel: pins, hubs, sheaves, rack bars
  concrete: { roughness: 0.95, metalness: 0 },
  rubber: { roughness: 0.9, metalness: 0 },       // tyres
  glass: { roughness: 0.1, metalness: 0.1 },      // cab windows: dark, reflect the sky
  wood: { roughness: 0.85, metalness: 0 },        // logs, stumps, crates
};
export const KINDS = Object.keys(SURFACES);

// the low quality's lights, in three's world frame (linear colours), set by scene.js
export const LIGHT = {
  sky: { value: new THREE.Color(0xffffff) },
  ground: { value: new THREE.Color(0x000000) },
  sunColor: { value: new THREE.Color(0xffffff) },
  sunDir: { value: new THREE.Vector3(0, 1, 0) },   // towards the sun
};

// Takes the scene's hemisphere and sun lights' values (intensity folded into the colours,
// divided by pi as three's Lambert does).
export function setLights(hemi, sun) {
  LIGHT.sky.value.copy(hemi.color).multiplyScalar(hemi.intensity / Math.PI);
  LIGHT.ground.value.copy(hemi.groundColor).multiplyScalar(hemi.intensity / Math.PI);
  LIGHT.sunColor.value.copy(sun.color).multiplyScalar(sun.intensity / Math.PI);
  LIGHT.sunDir.value.copy(sun.position).sub(sun.target.position).normalize();
}

// Whether GouraudMaterial finishes its colour per vertex for this renderer (see there).
export function finishedPerVertex(renderer) {
  return renderer?.outputColorSpace === THREE.SRGBColorSpace && renderer.toneMapping === THREE.NoToneMapping;
}

// the colour of each side per vertex: the material's colour times the vertex colour (as
// color_fragment multiplies), lit, plus the glow, in sRGB by three's own transfer function
// (colorspace_pars_fragment, included in the vertex stage)
const FINISH_PER_VERTEX = `vec3 albedo = diffuse;
#if defined( USE_COLOR_ALPHA ) || defined( USE_COLOR ) || defined( USE_INSTANCING_COLOR ) || defined( USE_BATCHING_COLOR )
albedo *= vColor.rgb;
#endif
vLightFront = sRGBTransferOETF( vec4( albedo * vLightFront + emissive * emissiveIntensity, 1.0 ) ).rgb;
vLightBack = sRGBTransferOETF( vec4( albedo * vLightBack + emissive * emissiveIntensity, 1.0 ) ).rgb;`;

// MeshBasicMaterial lit per vertex by LIGHT, with an emissive colour (a held load's glow).
// A subclass, so clones (occlusion.js's see-through copies) keep the lighting.
export class GouraudMaterial extends THREE.MeshBasicMaterial {
  constructor(params = {}) {
    const { emissive = 0x000000, emissiveIntensity = 1, ...rest } = params;
    super(rest);
    this.emissive = new THREE.Color(emissive);
    this.emissiveIntensity = emissiveIntensity;
  }

  copy(source) {
    super.copy(source);
    this.emissive.copy(source.emissive);
    this.emissiveIntensity = source.emissiveIntensity;
    return this;
  }

  // renderer: the one compiling. Drawing to sRGB (three's default output) without tone
  // mapping, the colour is finished per vertex, converted to sRGB there, and each pixel only
  // picks its side's: the conversion per pixel (a pow per channel) cost SwiftShader a third
  // of the Full view's drawing (20.5 against 14.2 ms, docs/web-client.md "Quality"). The
  // colours then blend across a face in sRGB rather than linear values, which only shows on
  // curved faces. Otherwise the light alone is interpolated and three converts per pixel.
  onBeforeCompile(shader, renderer) {
    Object.assign(shader.uniforms, LIGHT, { emissive: { value: this.emissive }, emissiveIntensity: { value: 1 } });
    const self = this;
    // the intensity is a number: read it at each draw
    Object.defineProperty(shader.uniforms.emissiveIntensity, 'value', { get: () => self.emissiveIntensity });
    const perVertex = finishedPerVertex(renderer) && !this.map;   // a texture is per pixel
    shader.vertexShader = shader.vertexShader
      .replace('#include <common>', `#include <common>
uniform vec3 sky, ground, sunColor, sunDir, diffuse, emissive;
uniform float emissiveIntensity;
varying vec3 vLightFront, vLightBack;
${perVertex ? '#include <colorspace_pars_fragment>' : ''}`)
      .replace('#include <fog_vertex>', `#include <fog_vertex>
vec3 n = normal;
#ifdef USE_INSTANCING
n = mat3( instanceMatrix ) * n;
#endif
n = normalize( mat3( modelMatrix ) * n );
float up = 0.5 * n.y + 0.5;
float sunN = dot( n, sunDir );
vLightFront = mix( ground, sky, up ) + sunColor * max( sunN, 0.0 );
vLightBack = mix( ground, sky, 1.0 - up ) + sunColor * max( -sunN, 0.0 );
${perVertex ? FINISH_PER_VERTEX : ''}`);
    shader.fragmentShader = shader.fragmentShader
      .replace('#include <common>', `#include <common>
uniform vec3 emissive;
uniform float emissiveIntensity;
varying vec3 vLightFront, vLightBack;`)
      .replace('vec3 outgoingLight = reflectedLight.indirectDiffuse;', perVertex
        ? 'vec3 outgoingLight = gl_FrontFacing ? vLightFront : vLightBack;'
        : 'vec3 outgoingLight = reflectedLight.indirectDiffuse * ( gl_FrontFacing ? vLightFront : vLightBack ) + emissive * emissiveIntensity;');
    if (perVertex) shader.fragmentShader = shader.fragmentShader.replace('#include <colorspace_fragment>', '');
  }
}

// A material for a kind of surface (SURFACES) at look.pbr; extra: colour, vertexColors, side...
export function surfaceMaterial(kind, look, extra = {}) {
  if (look?.pbr) return new THREE.MeshStandardMaterial({ ...SURFACES[kind] ?? SURFACES.paint, ...extra });
  return new GouraudMaterial(extra);
}
