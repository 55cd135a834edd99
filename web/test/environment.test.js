// The water's surface at low quality (web/js/environment.js): a grid coarse enough to be
// cheap in software WebGL, fine enough that the ripples it computes per vertex are sampled
// without aliasing (at least two vertices per wavelength along every wave).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RIPPLE, createWater } from '../js/environment.js';

test('water: every ripple is at least two grid spacings long', () => {
  for (const [kx, kz] of RIPPLE.k) {
    const wavelength = (2 * Math.PI) / Math.hypot(kx, kz);
    assert.ok(wavelength >= 2 * RIPPLE.spacing_m, `a ripple ${wavelength.toFixed(1)} m long on a ${RIPPLE.spacing_m} m grid`);
  }
});

test('water: the low quality grid has a vertex every spacing at most, and at most maxCells a side', () => {
  for (const size of [[12, 9], [80, 70], [400, 300]]) {
    const { mesh } = createWater(size, { waterWaves: false });
    const { widthSegments: nx, heightSegments: ny } = mesh.geometry.parameters;
    assert.ok(nx <= RIPPLE.maxCells && ny <= RIPPLE.maxCells, `${nx} x ${ny} cells`);
    const spacing = Math.max(size[0] / nx, size[1] / ny);
    // within the cap the spacing holds (to the rounding of the cell count); beyond it, the
    // ripples are the wavelengths' limit
    if (size[0] / RIPPLE.spacing_m <= RIPPLE.maxCells) assert.ok(spacing <= RIPPLE.spacing_m * 1.5, `${spacing} m`);
    const longest = Math.min(...RIPPLE.k.map(([kx, kz]) => (2 * Math.PI) / Math.hypot(kx, kz)));
    if (size[0] <= 100) assert.ok(spacing <= longest / 2, `${spacing} m between vertices on ${size} m`);
  }
});
