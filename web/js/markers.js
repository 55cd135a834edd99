// Contact markers: where the server reports a contact (display.contacts), a brief ring
// that flashes when the contact begins and fades out, even if the contact goes on (a log
// resting on the floor flashes once, not for ever). A contact that ends and begins again
// flashes again. Coloured by force, bigger for the trash rack and the gate (the contacts
// the task penalises). Pure functions over plain objects and a clock in ms; loads.js draws them.

export const MARKER = Object.freeze({
  flashMs: 250,        // the ring grows and shines this long after a contact begins
  fadeMs: 900,         // then fades out over this long
  gapMs: 300,          // a contact unreported this long has ended; when it comes back it is new
  mergeM: 0.5,         // a contact this close to a marker of the same pair and solid is the same one
  max: 32,             // markers tracked at once (the server sends at most 8 contacts a frame)
  radiusM: 0.25,       // ring radius of a light contact
  bigFactor: 2.0,      // rack and gate
  forceLowN: 100,      // green at or below
  forceHighN: 100000,  // red at or above (a 10 t load landing hard)
});

// Names as the server spells them ("trash rack", "clam-world"), compared in lower case
// without spaces or punctuation, so "Rack", "trash_rack" and "trash rack" are one.
export function token(name) {
  return typeof name === 'string' ? name.toLowerCase().replace(/[^a-z]/g, '') : '';
}

export function isRackOrGate(solid) {
  return ['rack', 'trashrack', 'gate'].includes(token(solid));
}

// Contact force on a log scale, 0 at forceLowN, 1 at forceHighN.
export function forceLevel(forceN) {
  const f = Math.max(Number(forceN) || 0, MARKER.forceLowN);
  const t = Math.log10(f / MARKER.forceLowN) / Math.log10(MARKER.forceHighN / MARKER.forceLowN);
  return Math.min(1, Math.max(0, t));
}

// green -> yellow -> red, as [r, g, b] in 0..1
export function forceColor(forceN) {
  const t = forceLevel(forceN);
  const green = [0.25, 0.85, 0.35], yellow = [1.0, 0.85, 0.15], red = [1.0, 0.18, 0.12];
  const [a, b, k] = t < 0.5 ? [green, yellow, t / 0.5] : [yellow, red, (t - 0.5) / 0.5];
  return a.map((x, i) => x + (b[i] - x) * k);
}

function sameKind(m, c) {
  return m.pair === c.pair && m.solid === c.solid && m.load === c.load;
}

function dist(a, b) {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

// The markers after one frame's contacts at time `now` (ms). A contact continues the
// nearest marker of its kind within mergeM (so a resting load keeps one marker, not a new
// flash every frame); others start new markers. A contact that comes back after gapMs, or
// presses more than twice as hard as before, flashes again. Markers whose contact has
// ended and whose ring has faded are dropped.
export function updateMarkers(markers, contacts, now) {
  const life = MARKER.flashMs + MARKER.fadeMs;
  const next = markers.filter((m) => now - m.seen < MARKER.gapMs || now - m.born < life).map((m) => ({ ...m }));
  const taken = new Set();
  for (const c of contacts ?? []) {
    let best = -1, bestD = MARKER.mergeM;
    next.forEach((m, i) => {
      if (taken.has(i) || !sameKind(m, c)) return;
      const d = dist(m.position_m, c.position_m);
      if (d <= bestD) { best = i; bestD = d; }
    });
    if (best >= 0) {
      const m = next[best];
      m.position_m = c.position_m.slice();
      m.force_N = c.force_N;
      if (now - m.seen > MARKER.gapMs || c.force_N > 2 * m.peak_N) {
        m.born = now;  // a new impact
        m.peak_N = c.force_N;
      } else {
        m.peak_N = Math.max(m.peak_N, c.force_N);
      }
      m.seen = now;
      taken.add(best);
    } else {
      next.push({ position_m: c.position_m.slice(), force_N: c.force_N, peak_N: c.force_N, pair: c.pair,
        solid: c.solid ?? null, load: c.load ?? null, big: isRackOrGate(c.solid), born: now, seen: now });
      taken.add(next.length - 1);
    }
  }
  next.sort((a, b) => b.seen - a.seen);
  return next.slice(0, MARKER.max);
}

// How a marker looks at `now`: radius [m], opacity 0..1, colour [r, g, b]; alive while
// its ring is on screen.
export function markerLook(m, now) {
  const age = Math.max(0, now - m.born);
  const base = MARKER.radiusM * (m.big ? MARKER.bigFactor : 1) * (1 + 0.6 * forceLevel(m.peak_N));
  const flashing = age < MARKER.flashMs;
  const flash = flashing ? 1 - age / MARKER.flashMs : 0;   // 1 at the impact
  const grow = flashing ? 0.5 + 0.7 * (age / MARKER.flashMs) : 1.2 + 0.3 * Math.min(1, (age - MARKER.flashMs) / MARKER.fadeMs);
  const fade = flashing ? 1 : Math.max(0, 1 - (age - MARKER.flashMs) / MARKER.fadeMs);
  return { radius: base * grow, opacity: fade, color: forceColor(m.peak_N), flash, alive: fade > 0 };
}
