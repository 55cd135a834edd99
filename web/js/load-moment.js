// The load moment indicator (LMI) and tipping as the trainee sees them: the gauge's words,
// colour and bar from a display frame, and the banners for a cut-out and a tip-over. The
// server measures and decides (docs/model.md, Stability); the levels are its own
// (hello.machine.load_moment), so nothing here is a threshold of the browser's. Pure: no DOM.

// level: as task.js WARNING_LEVELS ('ok' green, 'warn' amber, 'danger' red)
const STATE_LEVEL = { ok: 'ok', warning: 'warn', cutout: 'danger' };

// The gauge's bar is full at this multiple of the cut-out level, so the cut-out mark sits
// well inside it and a reading past it still shows as more.
const BAR_SPAN_PER_CUTOUT = 1.2;

// hello.machine.load_moment -> {warning_pct, cutout_pct}, or null (a server without an LMI).
export function loadMomentLevels(machine) {
  const l = machine?.load_moment;
  return l && Number.isFinite(l.warning_pct) && Number.isFinite(l.cutout_pct) ? l : null;
}

const fin = (v) => typeof v === 'number' && Number.isFinite(v);
const tonnes = (kg) => (fin(kg) ? `${(kg / 1000).toFixed(1)} t` : '– t');

// What the gauge shows for a frame: {visible, level, pctText, text, fraction, warningAt,
// cutoutAt} (fractions 0..1 of the bar). The colour is the server's own state (`lmi`, which
// keeps its hysteresis: a warning lets go some points lower, a cut-out only once the reading
// is back under the warning level); the levels only place the marks.
export function loadMomentView(frame, levels) {
  const pct = frame?.load_moment_pct;
  if (!fin(pct)) return { visible: false };
  const span = levels ? levels.cutout_pct * BAR_SPAN_PER_CUTOUT : 100 * BAR_SPAN_PER_CUTOUT;
  const at = (x) => Math.min(1, Math.max(0, x / span));
  const rated = fin(frame.rated_kg) && frame.rated_kg > 0 ? `of ${tonnes(frame.rated_kg)}` : '(no rating here)';
  return {
    visible: true,
    level: STATE_LEVEL[frame.lmi] ?? 'ok',
    pctText: `${Math.round(pct)} %`,
    text: `${tonnes(frame.hook_load_kg)} ${rated} at ${fin(frame.radius_m) ? frame.radius_m.toFixed(1) : '–'} m`,
    fraction: at(pct),
    warningAt: levels ? at(levels.warning_pct) : null,
    cutoutAt: levels ? at(levels.cutout_pct) : null,
  };
}

export const CUTOUT_TEXT = 'Load moment limit: hoist up, telescope out and boom down stopped — lower the load or bring the boom in';

// The sentence for a tip-over; restartKey: the key's label on this page, or null where this
// page cannot restart (an observer, a replay).
export function tippedText(restartKey = 'R') {
  return restartKey
    ? `The crane has tipped over — press ${restartKey} to restart`
    : 'The crane has tipped over — the task ends; only the trainee can restart it';
}

// The badges a frame raises (task.js puts them with the others): a tip-over alone (the
// limiter no longer matters), else the cut-out, else the warning level.
export function loadMomentWarnings(frame, { restartKey = 'R' } = {}) {
  if (frame?.tipped_over) return [{ id: 'tipped', level: 'danger', text: tippedText(restartKey) }];
  if (frame?.lmi === 'cutout') return [{ id: 'lmi', level: 'danger', state: 'cutout', text: CUTOUT_TEXT }];
  if (frame?.lmi === 'warning') {
    const pct = fin(frame.load_moment_pct) ? ` ${Math.round(frame.load_moment_pct)} %` : '';
    return [{ id: 'lmi', level: 'warn', state: 'warning', text: `Load moment${pct}: near the limit` }];
  }
  return [];
}
