// The drawing quality: 'high' (PBR materials, shadows, a shaded sky, waves with glints) on a
// real GPU, 'low' (cheap materials, no shadows, no antialiasing, one pixel per pixel) where
// WebGL runs in software, which spends its time per pixel drawn (docs/web-client.md,
// "Quality"). Chosen from WebGL's renderer string; ?quality=low|high overrides it.

export const QUALITIES = ['low', 'high'];

// renderer strings of rasterisers that run on the CPU
const SOFTWARE = /swiftshader|llvmpipe|softpipe|software|microsoft basic render/i;

export function isSoftwareRenderer(name) {
  return SOFTWARE.test(String(name ?? ''));
}

// rendererName: WEBGL_debug_renderer_info's UNMASKED_RENDERER (else gl.RENDERER; '' without
// WebGL); param: ?quality's value (null when absent).
// Returns {quality, reason, software, warning}: warning is null unless param is not a choice.
export function decideQuality({ rendererName = '', param = null } = {}) {
  const software = isSoftwareRenderer(rendererName);
  const named = rendererName ? `"${rendererName}"` : 'an unknown renderer';
  let warning = null;
  if (param !== null && param !== undefined) {
    const p = String(param).trim().toLowerCase();
    if (QUALITIES.includes(p)) return { quality: p, reason: `?quality=${p} (WebGL: ${named})`, software, warning };
    warning = `?quality=${param} is not a choice (${QUALITIES.join(' or ')}); choosing automatically`;
  }
  // no WebGL renderer string at all (an old browser, a blocked extension): play safe
  const quality = rendererName && !software ? 'high' : 'low';
  const why = software ? 'software WebGL' : rendererName ? 'a GPU' : 'renderer unknown';
  return { quality, reason: `automatic: ${why} (${named})`, software, warning };
}

// The page's WebGL renderer string, from a throw-away context ('' without WebGL).
export function probeRenderer(doc = globalThis.document) {
  try {
    const gl = doc.createElement('canvas').getContext('webgl2');
    if (!gl) return '';
    const ext = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return name;
  } catch {
    return '';
  }
}

// What the renderer and the world do at each quality (scene.js, views.js, pages/drawing.js read this).
export function qualitySettings(quality) {
  const high = quality === 'high';
  return {
    quality: high ? 'high' : 'low',
    antialias: high,
    maxPixelRatio: high ? 2 : 1,
    shadows: high,
    pbr: high,            // MeshStandardMaterial per surface kind, else one Lambert
    skyDome: high,        // a shaded sky dome with the sun, else a plain sky colour
    waterWaves: high,     // a moving normal map with sun glints, else a drifting tint
  };
}
