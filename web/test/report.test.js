// web/js/report.js: what the readable report page shows for a clamsim-report/1 body.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { reportView, clockWithTenths } from '../js/report.js';
import { EVENT_KINDS } from '../js/event-kinds.js';

process.env.TZ = 'Europe/Berlin';

const report = {
  schema: 'clamsim-report/1',
  session: 'session 3 (t250, dam_intake)',
  trainee: 'Ada Lovelace',
  task: 'Clear the trash rack: three logs into the truck',
  versions: { server: '0.9.0', model: { name: 't250', sha256: 'a'.repeat(64) },
    scenario: { name: 'dam_intake', sha256: 'b'.repeat(64) } },
  started_utc: '2026-11-21T09:26:53Z',
  ended_utc: '2026-11-21T09:32:01Z',
  outcome: 'completed',
  elapsed_s: 307.5, optimum_s: 300.0, limit_s: 450.0,
  delivered: 3, required: 3,
  loads: [{ id: 0, name: 'log1', delivered: true }, { id: 1, name: 'log2', delivered: true },
    { id: 2, name: 'log3', delivered: true }],
  time_points: 95.0,
  penalties: {
    rack_gate_hit: { count: 1, points_each: 10.0, points: 10.0 },
    structure_hit: { count: 0, points_each: 5.0, points: 0.0 },
    slack_cable: { count: 0, points_each: 5.0, points: 0.0 },
    overload: { count: 0, points_each: 15.0, points: 0.0 },
    dropped_load: { count: 1, points_each: 10.0, points: 10.0 },
  },
  penalty_points: 20.0,
  total: 75.0,
  timeline: [
    { sim_time_s: 41.25, task_time_s: 41.2, kind: 'rack_gate_hit', solid: 'trash rack', points: 10.0 },
    { sim_time_s: 188.6, task_time_s: 188.55, kind: 'dropped_load', load: 'log2', points: 10.0 },
  ],
};

test('clock with tenths', () => {
  assert.equal(clockWithTenths(307.5), '5:07.5');
  assert.equal(clockWithTenths(300), '5:00');
  assert.equal(clockWithTenths(59.96), '1:00');
  assert.equal(clockWithTenths(undefined), '–');
});

test('a report for people: who, outcome, local times, points, penalties, timeline, versions', () => {
  const v = reportView(report);
  assert.equal(v.title, 'Ada Lovelace');
  assert.equal(v.outcome, 'completed');
  assert.equal(v.task, report.task);
  assert.deepEqual(v.facts, [
    ['Started', '2026-11-21 10:26'],
    ['Ended', '2026-11-21 10:32'],
    ['Time', '5:07.5 (optimum 5:00, limit 7:30)'],
    ['Delivered', '3 of 3 (log1, log2, log3)'],
    ['Points', '75 = 95 for time − 20 for penalties'],
    ['Session', 'session 3 (t250, dam_intake)'],
  ]);
  assert.deepEqual(v.penalties[0], [EVENT_KINDS.rack_gate_hit.word, '1', '10', '10']);
  assert.deepEqual(v.penalties[3], [EVENT_KINDS.overload.word, '0', '15', '0']);
  assert.deepEqual(v.timeline, [
    ['0:41.2', 'Hit the trash rack or gate: trash rack', '10'],
    ['3:08.6', 'Dropped a load: log2', '10'],
  ]);
  assert.equal(v.versions[0][1], '0.9.0');
  assert.equal(v.versions[1][1], `t250 · sha256 ${'a'.repeat(12)}…`);
  assert.equal(v.versions[1][2], 'a'.repeat(64), 'the whole hash on hover');
});

test('not a report, or a report missing fields: no throw', () => {
  assert.equal(reportView(null), null);
  assert.equal(reportView({ schema: 'other' }), null);
  const v = reportView({ schema: 'clamsim-report/1' });
  assert.equal(v.title, 'No name given');
  assert.equal(v.facts[0][1], '–');
  assert.deepEqual(v.timeline, []);
  assert.equal(v.versions[0][1], '–', 'a report from before versions were written');
});

test('the timeline says who drove at a penalty and lists the instructor\u2019s actions without points', async () => {
  const { reportView: view } = await import('../js/report.js');
  const v = view({ schema: 'clamsim-report/1', timeline: [
    { sim_time_s: 10, task_time_s: 9.95, kind: 'control', detail: 'exclusive', by: 'ann' },
    { sim_time_s: 30, task_time_s: 29.95, kind: 'rack_gate_hit', solid: 'trash rack', points: 10, driver: 'instructor', instructor: 'ann' },
    { sim_time_s: 40, task_time_s: 39.95, kind: 'control', detail: 'trainee', by: 'ann' },
    { sim_time_s: 41, task_time_s: 40.95, kind: 'message', detail: 'Your turn', by: 'ann' },
    { sim_time_s: 50, task_time_s: 49.95, kind: 'slack_cable', points: 5, driver: 'both', instructor: 'ann' },
    { sim_time_s: 60, task_time_s: 59.95, kind: 'overload', points: 15, driver: 'trainee' },
  ] });
  assert.deepEqual(v.timeline.map((r) => [r[1], r[2]]), [
    ['Instructor ann took the controls', ''],
    ['Hit the trash rack or gate: trash rack \u2013 instructor ann driving', '10'],
    ['Instructor ann handed the controls back', ''],
    ['Message from ann: \u201cYour turn\u201d', ''],
    ['Slack cable \u2013 dual control with ann', '5'],
    ['Overload', '15'],
  ]);
});

test('the load moment penalties are in the table; a tip-over is a note without points', () => {
  const v = reportView({ ...report, outcome: 'tipped over',
    penalties: { ...report.penalties, lmi_warning: { count: 2, points_each: 5, points: 10 }, lmi_cutout: { count: 0, points_each: 10, points: 0 } },
    timeline: [
      { sim_time_s: 90, task_time_s: 89.5, kind: 'lmi_cutout', points: 10, driver: 'trainee' },
      { sim_time_s: 95, task_time_s: 94.5, kind: 'tip_over', detail: 'over the front outriggers', by: 'trainee' },
    ] });
  assert.equal(v.outcome, 'tipped over');
  assert.deepEqual(v.penalties.slice(-2), [['Load moment warning', '2', '5', '10'], ['Load moment cut-out', '0', '10', '0']]);
  assert.deepEqual(v.timeline.map((r) => [r[1], r[2]]),
    [['Load moment cut-out', '10'], ['Tipped over (over the front outriggers)', '']]);
});

test('the first account\'s own name is not said twice: "The instructor took the controls"', async () => {
  const { timelineWords, instructorWords } = await import('../js/timeline-words.js');
  assert.equal(instructorWords('instructor'), 'The instructor');
  assert.equal(instructorWords(''), 'The instructor');
  assert.equal(instructorWords('ann'), 'Instructor ann');
  assert.equal(timelineWords({ kind: 'control', detail: 'exclusive', by: 'instructor' }), 'The instructor took the controls');
  assert.equal(timelineWords({ kind: 'rack_gate_hit', solid: 'trash rack', driver: 'instructor', instructor: 'instructor' }),
    'Hit the trash rack or gate: trash rack \u2013 the instructor driving');
});

test('a practice report says so: no limit, the task marked practice', () => {
  const v = reportView({ schema: 'clamsim-report/1', task: 'Clear the trash rack', practice: true, outcome: 'interrupted',
    elapsed_s: 512.3, optimum_s: 300, limit_s: null });
  assert.equal(v.task, 'Clear the trash rack (practice)');
  assert.match(v.facts.find(([k]) => k === 'Time')[1], /practice: no limit/);
  const timed = reportView({ schema: 'clamsim-report/1', task: 'Clear the trash rack', practice: false, elapsed_s: 60, optimum_s: 300, limit_s: 450 });
  assert.equal(timed.task, 'Clear the trash rack');
  assert.match(timed.facts.find(([k]) => k === 'Time')[1], /limit 7:30/);
});
