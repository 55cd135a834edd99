import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  formatClock, formatKg, formatPoints, scoreView, makeWarningTracker, rackOrGateContact, reportView,
  makeRestartGuard, WARN, parseAdvice, adviceId, ADVICE_KINDS, adviceFacts,
} from '../js/task.js';
import { readFileSync } from 'node:fs';

// hello.scene.task as the server sends it: its penalty kinds in the report's order, with points
const TASK = { penalties: [['rack_gate_hit', 10], ['structure_hit', 5], ['slack_cable', 5], ['overload', 15],
  ['dropped_load', 10], ['lmi_warning', 5], ['lmi_cutout', 10]].map(([kind, points]) => ({ kind, points })) };
const score = (extra = {}) => ({ enabled: true, running: true, finished: false, completed: false, elapsed_s: 0,
  optimum_s: 300, limit_s: 450, delivered: 0, required: 3, time_points: 100, penalty_points: 0, total: 100,
  rack_gate_hits: 0, structure_hits: 0, slack_cables: 0, overloads: 0, dropped_loads: 0, ...extra });

test('clock, mass and points formatting', () => {
  assert.equal(formatClock(0), '0:00');
  assert.equal(formatClock(95.4), '1:35');
  assert.equal(formatClock(59.999), '0:59');
  assert.equal(formatClock(3725), '1:02:05');
  assert.equal(formatClock(-3), '0:00');
  assert.equal(formatClock(NaN), '–');
  assert.equal(formatKg(2350), '2\u2009350');
  assert.equal(formatKg(25000.4), '25\u2009000');
  assert.equal(formatKg(775), '775');
  assert.equal(formatPoints(85), '85');
  assert.equal(formatPoints(85.04), '85');
  assert.equal(formatPoints(66.666), '66.7');
  assert.equal(formatPoints(undefined), '–');
});

test('score view: hidden without a task; time bar against the optimum and the limit', () => {
  assert.equal(scoreView(undefined).visible, false);
  assert.equal(scoreView({ enabled: false }).visible, false);
  const ok = scoreView(score({ elapsed_s: 150 }), { title: 'Clear the rack' });
  assert.equal(ok.visible, true);
  assert.equal(ok.title, 'Clear the rack');
  assert.equal(ok.phase, 'ok');
  assert.equal(ok.elapsed, '2:30');
  assert.equal(ok.optimum, '5:00');
  assert.equal(ok.limit, '7:30');
  assert.ok(Math.abs(ok.fraction - 1 / 3) < 1e-12);
  assert.ok(Math.abs(ok.optimumFraction - 2 / 3) < 1e-12);
  assert.equal(ok.delivered, '0 / 3');
  assert.equal(ok.status, 'running');
  assert.equal(scoreView(score({ elapsed_s: 301 })).phase, 'late');
  const over = scoreView(score({ elapsed_s: 500 }));
  assert.equal(over.phase, 'over');
  assert.equal(over.fraction, 1);
  assert.equal(scoreView(score({ running: false })).status, 'ready');
  assert.equal(scoreView(score({ finished: true, completed: true })).statusText, 'Completed');
  assert.equal(scoreView(score({ finished: true })).status, 'failed');
  assert.equal(scoreView(score({ finished: true })).statusText, 'Timed out');
  // the task's kinds, each counted in the score as kind + 's'
  const pen = scoreView(score({ rack_gate_hits: 2, dropped_loads: 1 }), TASK).penalties;
  assert.deepEqual(pen.map((p) => p.count), [2, 0, 0, 0, 1, 0, 0]);
  assert.equal(pen.length, TASK.penalties.length);
  assert.deepEqual(pen[0], { key: 'rack_gate_hits', label: 'Hit the trash rack or gate', count: 2 });
  assert.deepEqual(scoreView(score()).penalties, [], 'no task: no kinds made up');
  // no limit given: the server's rule is not guessed, so no limit and no time bar
  const none = scoreView(score({ limit_s: 0, elapsed_s: 150 }));
  assert.equal(none.limit, '—');
  assert.equal(none.fraction, 0);
  assert.equal(none.phase, 'ok');
});

const frame = (extra = {}) => ({ values: { load_kg: 0 }, held_load: null, contacts: [], clam_submerged: 0,
  events: { rack_gate_hits: 0, slack_cables: 0, overloads: 0 }, ...extra });
const ids = (list) => list.map((w) => w.id);

test('warnings: contact with the rack or gate, now and for a while after the event', () => {
  const tr = makeWarningTracker();
  assert.deepEqual(tr.update(frame(), { now: 0 }), []);
  const touching = frame({ contacts: [{ position_m: [0, 0, 0], force_N: 5000, pair: 'clam-world', solid: 'trash rack', load: null }] });
  const rule = { speed_m_per_s: 0.2, points: 10 };
  const w = tr.update(touching, { now: 50, hitRule: rule });
  assert.deepEqual(ids(w), ['contact']);
  // touching without a counted hit: an allowed rub, amber, and the tooltip says so
  assert.equal(w[0].state, 'touching');
  assert.equal(w[0].level, 'warn');
  assert.match(w[0].text, /Touching: trash rack\/gate/);
  assert.match(w[0].title, /slower than 0\.2 m\/s, is allowed/);
  assert.match(w[0].title, /costs 10 points/);
  // a one-frame hit: the event counter rose; it stays on screen, red, for holdMs
  const hit = tr.update(frame({ contacts: touching.contacts, events: { rack_gate_hits: 1 } }), { now: 100, hitRule: rule });
  assert.equal(hit[0].state, 'hit');
  assert.equal(hit[0].level, 'danger');
  assert.match(hit[0].text, /penalty/);
  assert.deepEqual(ids(tr.update(frame({ events: { rack_gate_hits: 1 } }), { now: 100 + WARN.holdMs - 1 })), ['contact']);
  assert.deepEqual(ids(tr.update(frame({ events: { rack_gate_hits: 1 } }), { now: 100 + WARN.holdMs + 1 })), []);
  // the counter going back to 0 (restart) raises nothing
  assert.deepEqual(ids(tr.update(frame(), { now: 10000 })), []);
});

test('warnings: a held load against the gate counts, a loose one on the floor does not', () => {
  const held = { position_m: [0, 0, 0], force_N: 1, pair: 'load-world', solid: 'gate', load: 2 };
  assert.equal(rackOrGateContact({ ...held, pair: 'LoadWorld', solid: 'Gate' }, 2), true);
  assert.equal(rackOrGateContact(held, 2), true);
  assert.equal(rackOrGateContact(held, null), false);
  assert.equal(rackOrGateContact({ ...held, solid: 'Floor' }, 2), false);
  assert.equal(rackOrGateContact({ ...held, pair: 'clam-load', solid: null }, 2), false);
});

test('warnings: slack cable, overload, two-block, load held, under water', () => {
  const tr = makeWarningTracker();
  tr.update(frame(), { now: 0 });
  let w = tr.update(frame({ events: { slack_cables: 1, overloads: 1, rack_gate_hits: 0 } }), { now: 50 });
  assert.deepEqual(ids(w), ['overload', 'slack']);
  assert.deepEqual(w.map((x) => x.level), ['danger', 'warn']);
  // the server's flags: each rope's own slack, the overload, the anti-two-block stop
  const flags = (slack, overload = false, twoBlock = false) => ({ slack, overload, two_block: twoBlock });
  w = tr.update(frame({ flags: flags([false, true]) }), { now: 100 + WARN.holdMs * 2 });
  assert.deepEqual(ids(w), ['slack'], 'a slack rope warns while the server says so');
  assert.equal(w[0].text, 'Slack cable 2');
  assert.equal(tr.update(frame({ flags: flags([true, true]) }), { now: 1e4 })[0].text, 'Slack cables 1 and 2');
  assert.deepEqual(ids(tr.update(frame({ flags: flags([false, false]) }), { now: 1e4 + 1 })), [],
    'taut again: gone (no event was counted, nothing to hold)');
  w = tr.update(frame({ flags: flags([false, false], true, true) }), { now: 2e4 });
  assert.deepEqual(ids(w), ['overload', 'two_block']);
  assert.deepEqual(w.map((x) => x.level), ['danger', 'danger']);
  // a counted two-block stop stays on screen for holdMs after the flag drops
  const ev = (n) => ({ rack_gate_hits: 0, slack_cables: 0, overloads: 0, two_blocks: n });
  tr.update(frame({ events: ev(0) }), { now: 3e4 });
  tr.update(frame({ events: ev(1), flags: flags([false, false], false, true) }), { now: 3e4 + 50 });
  assert.deepEqual(ids(tr.update(frame({ events: ev(1) }), { now: 3e4 + 100 })), ['two_block']);
  assert.deepEqual(ids(tr.update(frame({ events: ev(1) }), { now: 3e4 + 100 + WARN.holdMs })), []);
  w = tr.update(frame({ held_load: 1, values: { load_kg: 2350 }, clam_submerged: 0.4 }), { now: 1e5 });
  assert.deepEqual(ids(w), ['load', 'water']);
  assert.equal(w[0].text, 'Load held: 2\u2009350 kg');
  assert.equal(w[1].text, 'Clam under water');
  // mass from the scene when DisplayData[7] is 0; whether it is too much is the server's word
  w = tr.update(frame({ held_load: 0 }), { now: 1e5, loadMassKg: () => 30000 });
  assert.deepEqual(ids(w), ['load']);
  assert.equal(w[0].text, 'Load held: 30\u2009000 kg');
  assert.deepEqual(ids(tr.update(frame({ held_load: 0, flags: flags([false, false], true) }), { now: 1e5, loadMassKg: () => 30000 })),
    ['overload', 'load']);
});

test('report view: outcome, time, points, penalties with counts and points, timeline', () => {
  const v = reportView({
    title: 'Clear the rack', outcome: 'completed', completed: true, elapsed_s: 412.3, optimum_s: 300, limit_s: 450,
    time_points: 25.1, penalty_points: 20, total: 5.1, delivered: 3, required: 3,
    penalties: { rack_gate_hit: { count: 2, points_each: 10, points: 20 }, dropped_load: { count: 0, points_each: 10, points: 0 } },
    timeline: [{ t_s: 12.5, event: 'grip', load: 'log-1' }, { t_s: 40, event: 'rack_gate_hit', points: 10 }],
  });
  assert.equal(v.title, 'Clear the rack');
  assert.equal(v.outcome, 'Completed');
  assert.equal(v.level, 'ok');
  assert.equal(v.time, '6:52');
  assert.equal(v.points, '5.1');
  assert.equal(v.delivered, '3 / 3');
  assert.deepEqual(v.penalties.map((p) => [p.label, p.count, p.pointsText]), [['Hit the trash rack or gate', 2, '−20'], ['Dropped a load', 0, '0']]);
  assert.deepEqual(v.timeline, [{ time: '0:12', text: 'grip (log-1)', points: '' }, { time: '0:40', text: 'Hit the trash rack or gate', points: '−10' }]);
});

test('report view: the report the session writes (schema clamsim-report/1)', () => {
  const v = reportView({
    schema: 'clamsim-report/1', session: 'session 3', task: 'Clear the trash rack: three logs into the truck',
    started_utc: '2025-11-21T19:00:00Z', ended_utc: '2025-11-21T19:07:30Z', outcome: 'timed out',
    elapsed_s: 450, optimum_s: 300, limit_s: 450, delivered: 2, required: 3,
    loads: [{ id: 0, name: 'log1', delivered: true }, { id: 1, name: 'log2', delivered: true }, { id: 2, name: 'log3', delivered: false }],
    time_points: 0,
    penalties: {
      rack_gate_hit: { count: 1, points_each: 10, points: 10 }, structure_hit: { count: 0, points_each: 5, points: 0 },
      slack_cable: { count: 2, points_each: 5, points: 10 }, overload: { count: 0, points_each: 15, points: 0 },
      dropped_load: { count: 1, points_each: 10, points: 10 },
    },
    penalty_points: 30, total: 0,
    timeline: [
      { sim_time_s: 61.2, task_time_s: 61.2, kind: 'rack_gate_hit', solid: 'trash_rack', points: 10 },
      { sim_time_s: 130.0, task_time_s: 130.0, kind: 'dropped_load', load: 'log3', points: 10 },
    ],
  });
  assert.equal(v.title, 'Clear the trash rack: three logs into the truck');
  assert.equal(v.outcome, 'Timed out');
  assert.equal(v.level, 'danger');
  assert.equal(v.time, '7:30');
  assert.equal(v.delivered, '2 / 3');
  assert.deepEqual(v.penalties.map((p) => [p.label, p.count, p.pointsText]), [['Hit the trash rack or gate', 1, '−10'],
    ['Hit the structure (deck, walls, truck)', 0, '0'], ['Slack cable', 2, '−10'], ['Overload', 0, '0'], ['Dropped a load', 1, '−10']]);
  assert.deepEqual(v.timeline, [{ time: '1:01', text: 'Hit the trash rack or gate: trash_rack', points: '−10' },
    { time: '2:10', text: 'Dropped a load: log3', points: '−10' }]);
  assert.deepEqual(v.loads, [{ name: 'log1', delivered: true }, { name: 'log2', delivered: true }, { name: 'log3', delivered: false }]);
  assert.equal(reportView({ outcome: 'completed', completed: undefined }).outcome, 'Completed');
});

test('report view: the last score fills the gaps', () => {
  const last = score({ elapsed_s: 450, finished: true, total: 0, rack_gate_hits: 1 });
  let v = reportView({ penalties: { slack_cable: { count: 3, points: 15 }, overload: { count: 1 } } }, last);
  assert.equal(v.outcome, 'Not completed');
  assert.equal(v.level, 'danger');
  assert.equal(v.time, '7:30');
  assert.equal(v.points, '0');
  assert.deepEqual(v.penalties.map((p) => [p.label, p.count, p.pointsText]), [['Slack cable', 3, '−15'], ['Overload', 1, '']]);
  v = reportView({}, last, null, TASK);
  assert.deepEqual(v.penalties.map((p) => p.count), [1, 0, 0, 0, 0, 0, 0], 'counts from the score');
  assert.deepEqual(v.timeline, []);
  v = reportView('not json', null);
  assert.equal(v.raw, 'not json');
  assert.equal(v.outcome, 'Not completed');
  assert.equal(reportView({ outcome: 'time_limit' }).outcome, 'Time limit');
});

test('report view: the trainee who flew it, when the report names one', () => {
  assert.equal(reportView({ schema: 'clamsim-report/1', trainee: 'Ada Lovelace', outcome: 'completed' }).trainee, 'Ada Lovelace');
  assert.equal(reportView({ trainee: null }).trainee, null);
  assert.equal(reportView({}).trainee, null);
  assert.equal(reportView({ trainee: '  ' }).trainee, null);
  assert.equal(reportView({ trainee: 7 }).trainee, null);
  assert.equal(reportView('not json').trainee, null);
});

test('restart guard: one press when idle, two while the task runs', () => {
  const g = makeRestartGuard({ confirmMs: 3000 });
  assert.equal(g.press(0, false), 'restart');
  assert.equal(g.press(1000, true), 'confirm');
  assert.equal(g.armed(2000), true);
  assert.equal(g.press(2500, true), 'restart');
  assert.equal(g.armed(2600), false);
  assert.equal(g.press(10000, true), 'confirm');
  assert.equal(g.press(14000, true), 'confirm', 'too late: asks again');
  g.cancel();
  assert.equal(g.press(14100, true), 'confirm');
});

test('contact badge: without the server\'s rule it names no number', async () => {
  const { contactWarning, hitRuleOf } = await import('../js/task.js');
  assert.doesNotMatch(contactWarning('touching', null).title, /m\/s/);
  assert.deepEqual(hitRuleOf({ hit_speed_m_per_s: 0.2, penalties: TASK.penalties }), { speed_m_per_s: 0.2, points: 10 });
  assert.equal(hitRuleOf(null), null);
});

test('score view: the load moment penalties and a tip-over instead of "Timed out"', () => {
  const v = scoreView(score({ lmi_warnings: 2, lmi_cutouts: 1 }), TASK);
  assert.deepEqual(v.penalties.slice(-2).map((p) => [p.key, p.label, p.count]),
    [['lmi_warnings', 'Load moment warning', 2], ['lmi_cutouts', 'Load moment cut-out', 1]]);
  const tipped = scoreView(score({ finished: true, running: false, tipped_over: true, elapsed_s: 120 }));
  assert.equal(tipped.status, 'tipped');
  assert.equal(tipped.statusText, 'Tipped over');
  assert.equal(scoreView(score({ finished: true, running: false, elapsed_s: 450 })).statusText, 'Timed out');
});

test('warnings: the limiter\'s cut-out and a tip-over come first, red; the warning level amber', () => {
  const tr = makeWarningTracker();
  tr.update(frame(), { now: 0 });
  let w = tr.update(frame({ lmi: 'warning', load_moment_pct: 91 }), { now: 50 });
  assert.deepEqual(w.map((x) => [x.id, x.level]), [['lmi', 'warn']]);
  w = tr.update(frame({ lmi: 'cutout', load_moment_pct: 100.4, events: { rack_gate_hits: 0, slack_cables: 0, overloads: 1 } }), { now: 100 });
  assert.deepEqual(w.map((x) => [x.id, x.level]), [['lmi', 'danger'], ['overload', 'danger']]);
  assert.match(w[0].text, /^Load moment limit: hoist up, telescope out and boom down stopped — lower the load or bring the boom in$/);
  w = tr.update(frame({ tipped_over: true, lmi: 'cutout' }), { now: 200, restartKey: 'R' });
  assert.deepEqual(w.map((x) => [x.id, x.level, x.text]).slice(0, 1), [['tipped', 'danger', 'The crane has tipped over — press R to restart']]);
  assert.ok(!w.some((x) => x.id === 'lmi'), 'the cut-out no longer matters');
  assert.doesNotMatch(tr.update(frame({ tipped_over: true }), { now: 300, restartKey: null })[0].text, /press/);
  assert.deepEqual(tr.update(frame({ lmi: 'ok', load_moment_pct: 40 }), { now: 1e5 }), []);
});

test('report view: tipped over, the load moment penalties and the timeline in words', () => {
  const r = {
    schema: 'clamsim-report/1', outcome: 'tipped over', elapsed_s: 130, optimum_s: 300, limit_s: 450, delivered: 1, required: 3,
    penalties: { rack_gate_hit: { count: 0, points_each: 10, points: 0 }, lmi_warning: { count: 1, points_each: 5, points: 5 },
      lmi_cutout: { count: 1, points_each: 10, points: 10 } },
    timeline: [
      { task_time_s: 100, kind: 'lmi_warning', points: 5, driver: 'trainee' },
      { task_time_s: 110, kind: 'lmi_cutout', points: 10, driver: 'trainee' },
      { task_time_s: 130, kind: 'tip_over', detail: 'over the left outriggers', by: 'trainee' },
    ],
  };
  const v = reportView(r, null, { warning_pct: 90, cutout_pct: 100 });
  assert.equal(v.outcome, 'Tipped over');
  assert.equal(v.level, 'danger');
  assert.deepEqual(v.penalties.map((p) => [p.label, p.count, p.pointsText]),
    [['Hit the trash rack or gate', 0, '0'], ['Load moment warning', 1, '−5'], ['Load moment cut-out', 1, '−10']]);
  assert.deepEqual(v.timeline.map((e) => [e.time, e.text, e.points]), [
    ['1:40', 'Load moment warning (90 %)', '−5'],
    ['1:50', 'Load moment cut-out (100 %)', '−10'],
    ['2:10', 'Tipped over (over the left outriggers)', ''],
  ]);
  // without the hello's levels no percentage is made up
  assert.equal(reportView(r).timeline[0].text, 'Load moment warning');
});

// the shipped explanations (web/data/advice.json), the one place their words live
const ADVICE = parseAdvice(JSON.parse(readFileSync(new URL('../data/advice.json', import.meta.url))));

test('advice.json explains every penalty event the page counts, each with what, why and how to avoid', () => {
  assert.ok(ADVICE, 'advice.json parses');
  const ids = ADVICE_KINDS.flatMap((kind) => (kind === 'slack_cable' ? ['slack_cable_1', 'slack_cable_2'] : [kind]));
  for (const id of ids) {
    const a = ADVICE.events[id];
    assert.ok(a, `no advice for ${id}`);
    for (const k of ['what', 'why', 'avoid']) assert.ok(a[k].length > 20, `${id}.${k}`);
    assert.ok(a.title, `${id}.title`);
  }
  // the slack words say what a loose loop does on a real drum
  assert.match(ADVICE.events.slack_cable_2.why, /sheave/);
  assert.match(ADVICE.events.slack_cable_2.why, /birdcage/);
  assert.equal(adviceId('slack_cable', [true, false]), 'slack_cable_1');
  assert.equal(adviceId('slack_cable', [false, true]), 'slack_cable_2');
  assert.equal(adviceId('overload', null), 'overload');
  assert.equal(parseAdvice(null), null);
  assert.equal(parseAdvice({ events: 3 }), null);
});

test('warnings: a counted slack event brings its explanation, held for the advice time, then gone', () => {
  const tr = makeWarningTracker();
  const frame = (slack, events) => ({ values: { load_kg: 0 }, contacts: [], held_load: null,
    flags: { slack, overload: false, two_block: false }, events });
  const zero = { slack_cables: 0, structure_hits: 0 };
  assert.equal(tr.update(frame([false, false], zero), { now: 0, adviceData: ADVICE }).find((w) => w.id === 'advice'), undefined);
  const out = tr.update(frame([false, true], { ...zero, slack_cables: 1 }), { now: 100, adviceData: ADVICE });
  const a = out.find((w) => w.id === 'advice');
  assert.equal(a.text, ADVICE.events.slack_cable_2.title);
  assert.equal(a.state, 'slack_cable_2');
  assert.equal(a.level, 'warn');
  assert.deepEqual(a.detail.map(([h]) => h), ['What happened', 'Why it matters', 'How to avoid it']);
  assert.equal(a.detail[2][1], ADVICE.events.slack_cable_2.avoid);
  // still up while a trainee reads it, gone after
  const later = (now) => tr.update(frame([false, false], { ...zero, slack_cables: 1 }), { now, adviceData: ADVICE });
  assert.ok(later(100 + ADVICE.holdMs - 1).some((w) => w.id === 'advice'));
  assert.ok(!later(100 + ADVICE.holdMs + 1).some((w) => w.id === 'advice'));
  // a structure hit explained as such; without the data, no explanation (the badges alone)
  const hit = tr.update(frame([false, false], { slack_cables: 1, structure_hits: 1 }), { now: 20000, adviceData: ADVICE });
  assert.equal(hit.find((w) => w.id === 'advice').state, 'structure_hit');
  const bare = makeWarningTracker();
  bare.update(frame([false, false], zero), { now: 0 });
  assert.ok(!bare.update(frame([true, false], { ...zero, slack_cables: 1 }), { now: 1 }).some((w) => w.id === 'advice'));
});

test('warnings: a dropped load (the score\'s count, no world event) brings its explanation: keep cable 1 slack with a load', () => {
  const tr = makeWarningTracker();
  const frame = (dropped) => ({ values: { load_kg: 0 }, contacts: [], held_load: null,
    flags: { slack: [false, false], overload: false, two_block: false },
    events: { slack_cables: 0, structure_hits: 0 }, score: { dropped_loads: dropped } });
  assert.ok(!tr.update(frame(0), { now: 0, adviceData: ADVICE }).some((w) => w.id === 'advice'));
  const a = tr.update(frame(1), { now: 100, adviceData: ADVICE }).find((w) => w.id === 'advice');
  assert.equal(a.state, 'dropped_load');
  assert.match(a.detail[2][1], /cable 1/);
  // a restart (the count back to 0) is a new baseline, not a drop
  tr.update(frame(0), { now: 20000, adviceData: ADVICE });
  assert.ok(!tr.update(frame(0), { now: 40000, adviceData: ADVICE }).some((w) => w.id === 'advice'));
});

test('advice names the server\'s slack margin of its own rope, never a copy of it', () => {
  const facts = adviceFacts({ cables: [{ slack_margin_m: 0.5 }, { slack_margin_m: 0.75 }] });
  const tr = makeWarningTracker();
  const frame = (slack, slacks) => ({ values: { load_kg: 0 }, contacts: [], held_load: null, clam_submerged: 0,
    flags: { slack, overload: false, two_block: false }, events: { slack_cables: slacks } });
  tr.update(frame([false, false], 0), { now: 0, adviceData: ADVICE, adviceFacts: facts });
  const w = tr.update(frame([false, true], 1), { now: 50, adviceData: ADVICE, adviceFacts: facts });
  const advice = w.find((x) => x.id === 'advice');
  assert.equal(advice.state, 'slack_cable_2');
  assert.match(advice.detail[0][1], /by more than 0\.75 m/);
  assert.doesNotMatch(JSON.stringify(advice), /\{slack_margin_m\}/, 'every token filled');
  assert.match(adviceFacts(null).slack_cable_1.slack_margin_m, /margin/, 'an older server: said in words');
});
