// The low quality's per-vertex material (web/js/materials.js, GouraudMaterial) against
// three's own per-pixel Lambert, in real Chromium WebGL: on flat faces they must draw the same
// colours, sRGB conversion included, whether the colour is finished per vertex (drawing to
// sRGB, as the page does) or per pixel (any other output). Each face is a big flat quad
// facing the camera, lit by the scene's kind of lights; the pixel at its centre is read back.
// Needs CLAMSIM_SERVER (it serves the page's modules and import map) and Debian's Chromium.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, freePort, ServerProcess, launchBrowser } from './harness.js';

const skip = skipReason();
if (skip) {
  console.log(`e2e skipped: ${skip}`);
  test('per-vertex material against three\'s Lambert', { skip }, () => {});
}

// Draws each case with both materials; returns [{name, lambert: [r, g, b], gouraud: [r, g, b]}].
// Runs in the page, which resolves 'three' through its import map.
async function drawBoth({ cases, linearOutput = false }) {
  const THREE = await import('three');
  const mat = await import('/js/materials.js');
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 64;
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: false });
  if (linearOutput) renderer.outputColorSpace = THREE.LinearSRGBColorSpace;
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0x000000);
  const hemi = new THREE.HemisphereLight(0xeef4ff, 0x4a4238, 2.2);
  const sun = new THREE.DirectionalLight(0xfff6e8, 1.8);
  sun.position.set(40, 60, -25);
  scene.add(hemi, sun, sun.target);
  sun.updateMatrixWorld();
  mat.setLights(hemi, sun);
  const camera = new THREE.PerspectiveCamera(30, 1, 0.1, 100);
  const gl = renderer.getContext();
  const px = new Uint8Array(4);
  const out = [];
  for (const c of cases) {
    // a quad whose normal is c.normal, in front of a camera looking straight at it
    const n = new THREE.Vector3(...c.normal).normalize();
    const geometry = new THREE.PlaneGeometry(4, 4);
    geometry.lookAt(n);
    if (c.vertexColor !== undefined) {
      const col = new THREE.Color(c.vertexColor);
      geometry.setAttribute('color', new THREE.Float32BufferAttribute(
        Array.from({ length: geometry.getAttribute('position').count }, () => [col.r, col.g, col.b]).flat(), 3));
    }
    camera.position.copy(n).multiplyScalar(10);
    camera.lookAt(0, 0, 0);
    const params = { color: c.color, vertexColors: c.vertexColor !== undefined, emissive: c.emissive ?? 0 };
    const read = (material) => {
      const mesh = new THREE.Mesh(geometry, material);
      scene.add(mesh);
      renderer.render(scene, camera);
      gl.readPixels(32, 32, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
      scene.remove(mesh);
      material.dispose();
      return [px[0], px[1], px[2]];
    };
    out.push({ name: c.name, lambert: read(new THREE.MeshLambertMaterial(params)), gouraud: read(new mat.GouraudMaterial(params)),
      perVertex: mat.finishedPerVertex(renderer) });
    geometry.dispose();
  }
  renderer.dispose();
  return out;
}

const CASES = [
  { name: 'crane yellow, facing the sun', color: 0xe0b020, normal: [40, 60, -25] },
  { name: 'concrete, a wall away from the sun', color: 0xb8b0a4, normal: [-1, 0, 0.4] },
  { name: 'bare steel, facing down (the ground\'s light only)', color: 0xc8ccd0, normal: [0, -1, 0] },
  { name: 'a vertex colour times the colour', color: 0xffffff, vertexColor: 0x3a7fc0, normal: [0.3, 1, 0.2] },
  { name: 'a held load\'s glow', color: 0x7a5533, emissive: 0x402000, normal: [1, 0.5, 0] },
];

describe('per-vertex material against three\'s Lambert', { skip: skip ?? false }, () => {
  let server, browser, page;

  before(async () => {
    server = new ServerProcess({ httpPort: await freePort(), corbaPort: await freePort(), logName: 'server-materials.log' });
    process.once('exit', () => server.killNow());
    await server.start();
    browser = await launchBrowser();
    page = await browser.newPage();
    await page.goto(server.url, { waitUntil: 'load', timeout: 20000 });
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
  });

  for (const linearOutput of [false, true]) {
    test(`flat faces: the same colours within 2/255, ${linearOutput ? 'linear output (per pixel)' : 'sRGB output (per vertex)'}`, async (t) => {
      const rows = await page.evaluate(drawBoth, { cases: CASES, linearOutput });
      for (const r of rows) {
        t.diagnostic(`${r.name}: Lambert ${r.lambert}, per vertex ${r.gouraud}`);
        assert.equal(r.perVertex, !linearOutput);
        assert.ok(r.lambert.some((x) => x > 0), `${r.name}: lit, not black (${r.lambert})`);
        r.lambert.forEach((x, k) => assert.ok(Math.abs(x - r.gouraud[k]) <= 2, `${r.name}: ${r.gouraud} against Lambert's ${r.lambert}`));
      }
    });
  }
});
