// The training task as the trainee sees it: the live score (display.score), the warnings
// the HUD raises from a frame, the end-of-task report, and when a restart needs a second
// press. Pure functions over plain objects and a clock in ms; task-ui.js puts them on the page.

import { timelineWords } from './timeline-words.js';
import { eventKind, penaltyKinds, countKey } from './event-kinds.js';
import { isRackOrGate, token } from './markers.js';
import { loadMomentWarnings } from './load-moment.js';

// ---- numbers --------------------------------------------------------------------------

// 95.4 -> "1:35", 3725 -> "1:02:05"; "–" when not a number
export function formatClock(s) {
  if (typeof s !== 'number' || !Number.isFinite(s)) return '–';
  const t = Math.max(0, Math.floor(s + 1e-9));
  const h = Math.floor(t / 3600), m = Math.floor((t % 3600) / 60), sec = t % 60;
  const ss = String(sec).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

// 2350 -> "2 350" (thin space groups, SI style)
export function formatKg(kg) {
  if (typeof kg !== 'number' || !Number.isFinite(kg)) return '–';
  return String(Math.round(kg)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');
}

// points: whole numbers as they are, others to one decimal
export function formatPoints(p) {
  if (typeof p !== 'number' || !Number.isFinite(p)) return '–';
  const r = Math.round(p * 10) / 10;
  return Number.isInteger(r) ? String(r) : r.toFixed(1);
}

// ---- live score -----------------------------------------------------------------------

// What the score panel shows. phase: 'ok' until the optimum time, 'late' while points
// fall, 'over' at the limit (no time points left). Fractions are of the limit.
export function scoreView(score, task = null) {
  if (!score || !score.enabled) return { visible: false };
  // the limit is the server's rule (model::TaskSpec::limit_s), sent in every score: never
  // guessed here; a score without one shows no limit and no time bar
  const limit = score.limit_s > 0 ? score.limit_s : null;
  const elapsed = Math.max(0, score.elapsed_s);
  const phase = limit !== null && elapsed >= limit ? 'over' : elapsed > score.optimum_s ? 'late' : 'ok';
  let status = 'ready';
  // a tip-over ends the task before its time: say so, not "timed out"
  if (score.finished) status = score.completed ? 'completed' : score.tipped_over ? 'tipped' : 'failed';
  else if (score.running) status = 'running';
  const STATUS_TEXT = { ready: 'Ready', running: 'Running', completed: 'Completed', failed: 'Timed out', tipped: 'Tipped over' };
  // a practice attempt (restart with practice) is scored but has no limit
  const practice = score.practice === true;
  return {
    visible: true,
    title: task?.title ?? 'Training task',
    status,
    statusText: practice && status === 'running' ? 'Practice' : STATUS_TEXT[status],
    practice,
    // the server starts the clock at the first moved control: say so until then
    readyHint: status === 'ready' ? `READY — move a control to start${practice ? ' (practice: no time limit)' : ' the clock'}` : '',
    phase,
    elapsed: formatClock(elapsed),
    optimum: formatClock(score.optimum_s),
    limit: limit === null ? '—' : formatClock(limit),
    fraction: limit === null ? 0 : Math.min(1, elapsed / limit),
    optimumFraction: limit === null ? 0 : Math.min(1, Math.max(0, score.optimum_s / limit)),
    points: formatPoints(score.total),
    timePoints: formatPoints(score.time_points),
    penaltyPoints: formatPoints(score.penalty_points),
    delivered: `${score.delivered} / ${score.required}`,
    deliveredFraction: score.required > 0 ? Math.min(1, score.delivered / score.required) : 0,
    // the server's penalty kinds (hello.scene.task), each counted in the score as kind + 's'
    penalties: (penaltyKinds(task) ?? []).map((p) => ({ key: p.countKey, label: p.word, count: score[p.countKey] ?? 0 })),
  };
}

// ---- warnings -------------------------------------------------------------------------

export const WARN = Object.freeze({
  holdMs: 2500,          // an event (hit, slack, overload, two-block) stays on screen this long
  submergedMin: 0.02,    // fraction of the clam below the water
});

// level: 'danger' (red), 'warn' (amber), 'ok' (green), 'info' (blue)
export const WARNING_LEVELS = Object.freeze({
  tipped: 'danger', lmi: 'danger', contact: 'danger', overload: 'danger', two_block: 'danger', slack: 'warn', load: 'ok',
  water: 'info', advice: 'warn',
});

// Is a contact the clam (or the load in its jaws) against the trash rack or the gate?
export function rackOrGateContact(c, heldLoad) {
  if (!isRackOrGate(c.solid)) return false;
  const pair = token(c.pair);
  return pair === 'clamworld' || (pair === 'loadworld' && heldLoad !== null && c.load === heldLoad);
}

// The rack/gate badge: 'hit' when the server counted a collision (a penalty), 'touching'
// while the clam only rubs. rule: {speed_m_per_s, points} from the scene's task; the
// tooltip says what is allowed in the server's own numbers.
export function contactWarning(state, rule = null) {
  const speed = Number.isFinite(rule?.speed_m_per_s) ? `${rule.speed_m_per_s} m/s` : null;
  const points = Number.isFinite(rule?.points) ? ` costs ${rule.points} points` : ' is a penalty';
  const allowed = speed
    ? `A light rub, slower than ${speed}, is allowed and costs nothing; striking the rack or the gate at ${speed} or faster${points}.`
    : `A light rub is allowed and costs nothing; a strike${points}.`;
  return state === 'hit'
    ? { id: 'contact', state, level: 'danger', text: 'Hit: trash rack/gate — penalty', title: allowed }
    : { id: 'contact', state, level: 'warn', text: 'Touching: trash rack/gate (no penalty)', title: allowed };
}

// The rule behind contactWarning from hello.scene.task (null without a task).
export function hitRuleOf(task) {
  if (!task) return null;
  const points = penaltyKinds(task)?.find((p) => p.kind === 'rack_gate_hit')?.points;
  return { speed_m_per_s: task.hit_speed_m_per_s ?? null, points: Number.isFinite(points) ? points : null };
}

// "Slack cable 2", "Slack cables 1 and 2" from display.flags.slack; null when both are taut
export function slackText(slack) {
  const which = [0, 1].filter((i) => slack?.[i]).map((i) => i + 1);
  if (!which.length) return null;
  return which.length === 1 ? `Slack cable ${which[0]}` : 'Slack cables 1 and 2';
}

// ---- advice -----------------------------------------------------------------------------

// The events web/data/advice.json explains, in the order one is chosen when several counters
// rise in a frame (a hit before the slack it caused); each is counted in display.events as
// kind + 's' (slack_cable takes the rope from display.flags.slack). The words live only in
// that file.
export const ADVICE_KINDS = Object.freeze(['rack_gate_hit', 'structure_hit', 'overload', 'lmi_cutout',
  'lmi_warning', 'two_block', 'slack_cable']);

// The advice data (web/data/advice.json) checked: {holdMs, events: {id: {title, what, why,
// avoid}}}; null when it is not usable (the page then shows the short badges only).
export function parseAdvice(raw) {
  if (!raw || typeof raw !== 'object' || !raw.events || typeof raw.events !== 'object') return null;
  const events = {};
  for (const [id, e] of Object.entries(raw.events)) {
    if (!e || typeof e.title !== 'string') continue;
    const text = (k) => (typeof e[k] === 'string' ? e[k] : '');
    events[id] = { title: e.title, what: text('what'), why: text('why'), avoid: text('avoid') };
  }
  const holdS = Number.isFinite(raw.hold_s) && raw.hold_s > 0 ? raw.hold_s : 12;
  return { holdMs: holdS * 1000, events };
}

// The figures an advice text names as {token}, per entry, from the hello's machine (the
// server's rules, never a copy here): {slack_margin_m} is the loop of that rope which counts
// as a slack event.
export function adviceFacts(machine) {
  const margin = (i) => {
    const m = machine?.cables?.[i]?.slack_margin_m;
    return Number.isFinite(m) ? `${m} m` : 'its slack margin';
  };
  return { slack_cable_1: { slack_margin_m: margin(0) }, slack_cable_2: { slack_margin_m: margin(1) } };
}

const fillFacts = (text, facts) => text.replace(/\{(\w+)\}/g, (all, k) => facts?.[k] ?? all);

// The entry for a risen counter: which slack rope from the flags (cable 2 when both or
// neither is flagged any more: the one the jaws' stops leave loose most often).
export function adviceId(kind, slack) {
  if (kind !== 'slack_cable') return kind;
  return slack?.[0] && !slack?.[1] ? 'slack_cable_1' : 'slack_cable_2';
}

// Keeps the event counters between frames, so an event shows for holdMs even if it lasted
// one frame. A counter that goes down (the task restarted) is taken as the new baseline.
// Slack, overload and two-block are the server's own states (display.flags, with its
// hysteresis); the page derives none of them.
export function makeWarningTracker({ holdMs = WARN.holdMs } = {}) {
  let last = null;
  const until = { contact: -Infinity, slack: -Infinity, overload: -Infinity, two_block: -Infinity };
  const COUNTERS = { contact: countKey('rack_gate_hit'), slack: countKey('slack_cable'),
    overload: countKey('overload'), two_block: countKey('two_block') };
  let lastSlack = null;   // the text of the last slack shown, held with it
  let advice = null;      // {id, until}: the explanation of the last penalty event
  let lastDropped = null; // the score's dropped loads (the scorer's rule, not a world event)
  return {
    reset() {
      last = null;
      lastDropped = null;
      lastSlack = null;
      advice = null;
      for (const k of Object.keys(until)) until[k] = -Infinity;
    },
    // frame: a parsed display; opts: {now (ms), loadMassKg(i),
    // hitRule: {speed_m_per_s, points} of hello.scene.task (the server's rule), or null,
    // restartKey: the restart key's label, null where this page cannot restart}
    // adviceData: parseAdvice's, or null (no explanations)
    update(frame, { now, loadMassKg = () => 0, hitRule = null, restartKey = 'R', adviceData = null, adviceFacts: facts = null } = {}) {
      const ev = frame.events;
      if (ev) {
        for (const [k, counter] of Object.entries(COUNTERS)) {
          const n = ev[counter] ?? 0;
          if (last && n > (last[counter] ?? 0)) until[k] = now + holdMs;
        }
        // the first risen counter in ADVICE_KINDS' order (a hit before the slack it caused)
        const risen = last ? ADVICE_KINDS.find((k) => (ev[countKey(k)] ?? 0) > (last[countKey(k)] ?? 0)) : null;
        const dropped = frame.score?.[countKey('dropped_load')] ?? null;
        const droppedNow = dropped !== null && lastDropped !== null && dropped > lastDropped;
        lastDropped = dropped;
        const id = risen ? adviceId(risen, frame.flags?.slack) : droppedNow ? 'dropped_load' : null;
        if (id && adviceData?.events[id]) advice = { id, until: now + adviceData.holdMs };
        last = { ...ev };
      }
      // the machine's own state first: the limiter's cut-out and a tip-over stay while they last
      const out = loadMomentWarnings(frame, { restartKey });
      const held = frame.held_load ?? null;
      const touching = (frame.contacts ?? []).some((c) => rackOrGateContact(c, held));
      // a counted hit is red; a touch below the server's hit speed is an allowed rub, amber
      if (now < until.contact) out.push(contactWarning('hit', hitRule));
      else if (touching) out.push(contactWarning('touching', hitRule));
      const mass = frame.values?.load_kg > 0 ? frame.values.load_kg : held !== null ? loadMassKg(held) : 0;
      const flags = frame.flags;
      if (now < until.overload || flags?.overload) out.push({ id: 'overload', text: 'Overload' });
      if (now < until.two_block || flags?.two_block) out.push({ id: 'two_block', text: 'Anti-two-block: hoisting stopped' });
      const slack = slackText(flags?.slack);
      if (slack) lastSlack = slack;
      if (slack || now < until.slack) out.push({ id: 'slack', text: slack ?? lastSlack ?? 'Slack cable' });
      if (held !== null || mass > 0) out.push({ id: 'load', text: `Load held: ${formatKg(mass)} kg` });
      if ((frame.clam_submerged ?? 0) > WARN.submergedMin) out.push({ id: 'water', text: 'Clam under water' });
      // what caused the last penalty event and how to avoid it, held long enough to read
      if (advice && now < advice.until) {
        const a = adviceData?.events[advice.id];
        const own = facts?.[advice.id];
        if (a) out.push({ id: 'advice', state: advice.id, text: fillFacts(a.title, own),
          detail: [['What happened', a.what], ['Why it matters', a.why], ['How to avoid it', a.avoid]]
            .filter(([, t]) => t).map(([h, t]) => [h, fillFacts(t, own)]) });
      }
      return out.map((w) => ({ level: WARNING_LEVELS[w.id], ...w }));
    },
  };
}

// ---- report ---------------------------------------------------------------------------

const pick = (o, ...keys) => {
  for (const k of keys) if (o && o[k] !== undefined && o[k] !== null) return o[k];
  return undefined;
};

function num(x) {
  return typeof x === 'number' && Number.isFinite(x) ? x : undefined;
}

// The penalties of a report: [{key, label, count, points}], from the report's
// {kind: {count, points_each, points}} in the server's order; without a report, the score's
// counts of the task's kinds.
function reportPenalties(r, score, task) {
  let list = [];
  if (r.penalties && typeof r.penalties === 'object') {
    list = Object.entries(r.penalties).map(([kind, v]) =>
      ({ key: kind, label: eventKind(kind).word, count: num(v?.count) ?? 0, points: num(v?.points) }));
  } else if (score?.enabled) {
    list = (penaltyKinds(task) ?? []).map((p) => ({ key: p.kind, label: p.word, count: score[p.countKey] ?? 0, points: undefined }));
  }
  return list.map((p) => ({ ...p, pointsText: p.points === undefined ? '' : p.points === 0 ? '0' : `−${formatPoints(Math.abs(p.points))}` }));
}

// a timeline entry in words (timeline-words.js); older or foreign shapes as they come
function timelineText(e, levels) {
  if (typeof e === 'string') return e;
  const what = String(pick(e, 'text', 'event', 'what', 'kind', 'type', 'message') ?? '');
  const words = timelineWords({ ...e, kind: e.kind ?? what }, levels);
  if (words) return words;
  const extra = [pick(e, 'solid'), pick(e, 'load', 'load_id'), pick(e, 'detail', 'note')].filter((x) => x !== undefined);
  return `${what.replace(/_/g, ' ')}${extra.length ? ` (${extra.join(', ')})` : ''}`;
}

// What the report overlay shows, from the report the session wrote and the last score
// (which fills in anything the report leaves out); levels: hello.machine.load_moment, whose
// percentages the load moment entries name; task: hello.scene.task (its penalty kinds).
export function reportView(report, score = null, levels = null, task = null) {
  const r = report && typeof report === 'object' ? report : {};
  const completed = pick(r, 'completed') ?? score?.completed ?? false;
  const outcomeRaw = pick(r, 'outcome', 'result');
  const outcome = typeof outcomeRaw === 'string'
    ? outcomeRaw.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase())
    : completed ? 'Completed' : 'Not completed';
  const elapsed = num(pick(r, 'elapsed_s', 'time_s', 'duration_s')) ?? score?.elapsed_s;
  const optimum = num(pick(r, 'optimum_s')) ?? score?.optimum_s;
  const limit = num(pick(r, 'limit_s')) ?? score?.limit_s;
  const total = num(pick(r, 'total', 'points', 'score')) ?? score?.total;
  const delivered = num(pick(r, 'delivered')) ?? score?.delivered;
  const required = num(pick(r, 'required')) ?? score?.required;
  const rawTimeline = pick(r, 'timeline', 'events');
  const timeline = Array.isArray(rawTimeline) ? rawTimeline.map((e) => {
    const t = num(pick(e, 'task_time_s', 't_s', 't', 'time_s', 'elapsed_s'));
    const pts = num(pick(e, 'points', 'penalty_points'));
    return { time: t === undefined ? '' : formatClock(t), text: timelineText(e, levels), points: pts === undefined || pts === 0 ? '' : `${pts > 0 ? '−' : '+'}${formatPoints(Math.abs(pts))}` };
  }) : [];
  // who flew it (the `trainee` message); null when nobody gave a name
  const trainee = typeof r.trainee === 'string' && r.trainee.trim() ? r.trainee : null;
  const practice = r.practice === true || (r.practice === undefined && score?.practice === true);
  return {
    title: pick(r, 'title', 'task') ?? 'Training task',
    practice,
    trainee,
    outcome,
    level: completed ? 'ok' : 'danger',
    time: formatClock(elapsed),
    optimum: formatClock(optimum),
    limit: practice ? 'none (practice)' : formatClock(limit),
    points: formatPoints(total),
    timePoints: formatPoints(num(pick(r, 'time_points')) ?? score?.time_points),
    penaltyPoints: formatPoints(num(pick(r, 'penalty_points')) ?? score?.penalty_points),
    delivered: delivered === undefined ? '–' : `${delivered} / ${required ?? '–'}`,
    penalties: reportPenalties(r, score, task),
    loads: Array.isArray(r.loads) ? r.loads.filter((l) => l && typeof l === 'object')
      .map((l) => ({ name: String(pick(l, 'name', 'id') ?? ''), delivered: Boolean(l.delivered) })) : [],
    timeline,
    raw: typeof report === 'string' ? report : null,
  };
}

// ---- restart --------------------------------------------------------------------------

// Key R and the joystick's restart button: while a task is running a first press only
// asks ("press again"), a second within confirmMs restarts; otherwise one press restarts.
export function makeRestartGuard({ confirmMs = 3000 } = {}) {
  let armedAt = -Infinity;
  return {
    press(now, running) {
      if (!running || now - armedAt <= confirmMs) {
        armedAt = -Infinity;
        return 'restart';
      }
      armedAt = now;
      return 'confirm';
    },
    armed(now) { return now - armedAt <= confirmMs; },
    cancel() { armedAt = -Infinity; },
  };
}
