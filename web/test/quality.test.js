import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decideQuality, isSoftwareRenderer, qualitySettings, QUALITIES } from '../js/quality.js';

const SWIFTSHADER = 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)';
const LLVMPIPE = 'llvmpipe (LLVM 15.0.6, 256 bits)';
const NVIDIA = 'ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 (0x00002503) Direct3D11 vs_5_0 ps_5_0, D3D11)';
const INTEL = 'Mesa Intel(R) UHD Graphics 620 (KBL GT2)';

test('software rasterisers are recognised by their renderer strings', () => {
  for (const s of [SWIFTSHADER, LLVMPIPE, 'softpipe', 'Google SwiftShader', 'Software Adapter',
    'ANGLE (Microsoft, Microsoft Basic Render Driver Direct3D11 vs_5_0 ps_5_0, D3D11)']) {
    assert.equal(isSoftwareRenderer(s), true, s);
  }
  for (const s of [NVIDIA, INTEL, 'Apple M2', 'ANGLE (AMD, AMD Radeon RX 6600)', '', null]) {
    assert.equal(isSoftwareRenderer(s), false, String(s));
  }
});

test('automatic: low in software, high on a GPU, low when the renderer is unknown', () => {
  const sw = decideQuality({ rendererName: SWIFTSHADER });
  assert.equal(sw.quality, 'low');
  assert.equal(sw.software, true);
  assert.match(sw.reason, /automatic: software WebGL/);
  assert.match(sw.reason, /SwiftShader/);
  assert.equal(sw.warning, null);
  assert.equal(decideQuality({ rendererName: LLVMPIPE }).quality, 'low');
  const gpu = decideQuality({ rendererName: NVIDIA });
  assert.equal(gpu.quality, 'high');
  assert.equal(gpu.software, false);
  assert.match(gpu.reason, /automatic: a GPU/);
  assert.equal(decideQuality({ rendererName: INTEL, param: null }).quality, 'high');
  assert.equal(decideQuality({ rendererName: '' }).quality, 'low');
  assert.equal(decideQuality().quality, 'low');
});

test('?quality=low|high overrides the automatic choice either way', () => {
  const forced = decideQuality({ rendererName: SWIFTSHADER, param: 'high' });
  assert.deepEqual([forced.quality, forced.software, forced.warning], ['high', true, null]);
  assert.match(forced.reason, /\?quality=high/);
  assert.equal(decideQuality({ rendererName: NVIDIA, param: 'low' }).quality, 'low');
  assert.equal(decideQuality({ rendererName: NVIDIA, param: ' HIGH ' }).quality, 'high');
});

test('any other ?quality warns, naming the choices, and chooses automatically', () => {
  for (const param of ['medium', '', 'ultra', '1']) {
    const r = decideQuality({ rendererName: NVIDIA, param });
    assert.equal(r.quality, 'high', param);
    assert.match(r.warning, /low or high/);
    assert.match(r.warning, new RegExp(`quality=${param} `));
    assert.match(r.reason, /automatic/);
  }
  assert.equal(decideQuality({ rendererName: SWIFTSHADER, param: 'medium' }).quality, 'low');
});

test('settings: high draws shadows, PBR and antialiasing; low none of them at one pixel per pixel', () => {
  assert.deepEqual(QUALITIES, ['low', 'high']);
  const hi = qualitySettings('high'), lo = qualitySettings('low');
  assert.deepEqual([hi.shadows, hi.pbr, hi.antialias, hi.maxPixelRatio], [true, true, true, 2]);
  assert.deepEqual([lo.shadows, lo.pbr, lo.antialias, lo.maxPixelRatio], [false, false, false, 1]);
  assert.equal(qualitySettings('anything').quality, 'low');
});
