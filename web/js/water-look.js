// How murky water looks (the instructor's turbidity fault: 0 clear .. 1 nil): the
// surface's opacity and colour seen from above, and the underwater fog's density and colour
// seen from below. Pure numbers, for scene.js and views.js; the server sends turbidity.

// clear water's colours: the scene's (scene.js COLORS takes them from here)
export const CLEAR = { surface: 0x2f7f99, deep: 0x16434f };
const SILT = { surface: 0x6b6347, deep: 0x3a3424 };   // a brown flood-water tint

function mix(a, b, t) {
  const c = (shift) => Math.round(((a >> shift) & 255) * (1 - t) + ((b >> shift) & 255) * t);
  return (c(16) << 16) | (c(8) << 8) | c(0);
}

// t in 0..1 (anything else is clamped; a missing value is clear water).
// - surface opacity: 0.5 (the clear water's) up to 0.98, so at nil visibility nothing under
//   the surface shows from above;
// - fogPerFocus: the exponential fog's density times the focus camera's distance. Clear
//   water keeps the clam at the focus distance 80 % visible (exp(-0.47^2)); nil makes it
//   1 % visible (exp(-2.1^2)).
export function waterLook(turbidity) {
  const t = Number.isFinite(turbidity) ? Math.min(1, Math.max(0, turbidity)) : 0;
  return {
    turbidity: t,
    surfaceOpacity: 0.5 + 0.48 * t,
    surfaceColor: mix(CLEAR.surface, SILT.surface, t),
    deepColor: mix(CLEAR.deep, SILT.deep, t),
    fogPerFocus: 0.47 + 1.63 * t,
  };
}
