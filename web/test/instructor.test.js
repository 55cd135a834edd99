// web/js/instructor.js: the instructor's rows from /api/sessions and /api/reports bodies,
// local times and the report filter's query.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  formatClock, sessionRows, reportRows, localDateTime, utcOffsetText, reportFilterQuery,
} from '../js/instructor.js';
import { PENALTY_COLUMNS } from '../js/event-kinds.js';

// a zone an hour ahead of UTC in November, so local and UTC times differ
process.env.TZ = 'Europe/Berlin';

const task = {
  running: true, finished: false, completed: false, elapsed_s: 75.4, optimum_s: 300, limit_s: 450,
  delivered: 1, required: 3, time_points: 100, penalty_points: 10, total: 90,
  rack_gate_hits: 1, structure_hits: 0, slack_cables: 0, overloads: 0, dropped_loads: 0,
};

test('task clock as minutes and seconds', () => {
  assert.equal(formatClock(0), '0:00');
  assert.equal(formatClock(75.4), '1:15');
  assert.equal(formatClock(300), '5:00');
  assert.equal(formatClock(3599.9), '59:59');
  assert.equal(formatClock(undefined), null);
  assert.equal(formatClock(-1), null);
});

test('a live session: state, clock, delivered, each penalty, points', () => {
  const [row] = sessionRows({ sessions: [{ id: 4, trainee: 'Ada', model: 't250', world: 'dam_intake', task }], capacity: 250 });
  assert.equal(row.id, 4);
  assert.equal(row.state, 'running');
  assert.equal(row.late, false);
  // a column per penalty kind (event-kinds.js), the first the rack/gate hits' count
  const penalties = PENALTY_COLUMNS.map((c) => String(task[c.countKey] ?? 0));
  assert.equal(penalties[0], '1');
  assert.deepEqual(row.cells.map((c) => c.text),
    ['#4', 'Ada', 't250 · dam_intake', 'running', '1:15 / 5:00', '1 / 3', ...penalties, '90', 'Watch']);
  const watch = row.cells.at(-1);
  assert.deepEqual(watch.links, [{ href: '/?observe=4', text: 'Watch', cls: 'watch' }],
    'Watch opens the browser client watching this session');
  assert.deepEqual(watch.buttons, [{ text: 'Ticket', session: 4, cls: 'ticket',
    title: 'A one-time ticket to watch this trainee with clamsim-receiver on a classroom PC' }],
    'and a ticket for a classroom PC receiver to watch it');
  assert.equal(row.cells[6].count, 1, 'a penalty cell carries its count for highlighting');
});

test('finished, timed out, late and task-less sessions', () => {
  const rows = sessionRows({ sessions: [
    { id: 1, model: 't250', world: 'dam_intake', task: { ...task, finished: true, completed: true, running: false } },
    { id: 2, model: 't250', world: 'dam_intake', task: { ...task, finished: true, running: false, elapsed_s: 450, total: 0 } },
    { id: 3, model: 't250', world: 'dam_intake', task: { ...task, elapsed_s: 320 } },
    { id: 5, model: 't250', world: null, task: null },
  ] });
  assert.deepEqual(rows.map((r) => r.state), ['completed', 'timed out', 'running', 'no task']);
  assert.equal(rows[2].late, true, 'past the optimum');
  assert.equal(rows[3].cells[1].text, '–', 'no name given');
  assert.equal(rows[3].cells[2].text, 't250 · empty space');
  assert.ok(rows[3].cells.slice(4, 14).every((c) => c.text === '–'));
});

test('garbage bodies give no rows instead of throwing', () => {
  for (const body of [null, {}, { sessions: 'x' }, []]) assert.deepEqual(sessionRows(body), []);
  for (const body of [null, {}, { reports: 3 }]) assert.deepEqual(reportRows(body), []);
});

test('a finished report: local end time, outcome, time, delivered, points and its links', () => {
  const [row, broken] = reportRows({ reports: [
    { name: 'report-4-20261121T215001Z.json', session: 'session 4 (t250, dam_intake)', trainee: 'Ada', task: 'Clear',
      ended_utc: '2026-11-21T21:50:01Z', outcome: 'completed', elapsed_s: 312.5, total: 85, delivered: 3, required: 3 },
    { name: 'report-2-20261120T235959Z.json', outcome: 'unreadable', total: 0, delivered: 0, required: 0 },
  ] });
  assert.equal(row.state, 'completed');
  assert.deepEqual(row.cells.map((c) => c.text),
    ['2026-11-21 22:50', 'Ada', 'session 4 (t250, dam_intake)', 'completed', '5:12', '3 / 3', '85', 'Open']);
  assert.deepEqual(row.cells[7].links.map((l) => l.href),
    ['report.html?name=report-4-20261121T215001Z.json', 'api/reports/report-4-20261121T215001Z.json']);
  assert.equal(broken.cells[6].text, '–', 'no points shown for a file that is not a report');
  assert.equal(broken.cells[1].text, '–');
  assert.equal(broken.cells[0].text, '–');
  assert.deepEqual(broken.cells[7].links.map((l) => l.text), ['JSON'], 'nothing to open but the file');
});

test('local times and the offset named in the column header', () => {
  assert.equal(localDateTime('2026-11-21T23:30:00Z'), '2026-11-22 00:30', 'past local midnight');
  assert.equal(localDateTime('2026-07-01T12:00:00Z'), '2026-07-01 14:00', 'summer time');
  assert.equal(localDateTime(''), null);
  assert.equal(localDateTime('soon'), null);
  assert.equal(utcOffsetText(new Date('2026-11-21T12:00:00Z')), 'UTC+1');
  assert.equal(utcOffsetText(new Date('2026-07-01T12:00:00Z')), 'UTC+2');
});

test('the filter asks the server for local days, both included, as UTC times', () => {
  assert.equal(reportFilterQuery({}), '');
  assert.equal(reportFilterQuery({ trainee: '  Ada L ' }), 'trainee=Ada+L');
  assert.equal(reportFilterQuery({ from: '2026-11-21', to: '2026-11-21' }),
    'from=2026-11-20T23%3A00%3A00Z&to=2026-11-21T23%3A00%3A00Z');
  // the last Sunday of October is 25 hours long in Berlin
  assert.equal(reportFilterQuery({ to: '2026-10-25' }), 'to=2026-10-25T23%3A00%3A00Z');
  assert.equal(reportFilterQuery({ from: 'nonsense' }), '', 'not a day: no bound');
});

test('the first lesson: live progress and the finished lesson in the report list', async () => {
  const { sessionRows, reportRows } = await import('../js/instructor.js');
  const live = sessionRows({ sessions: [{ id: 4, trainee: 'Ada', model: 't250', world: 'first_lesson', task: null,
    lesson: { step: 2, steps: 6, finished: false } }, { id: 5, task: null, lesson: { step: 6, steps: 6, finished: true } }] });
  assert.equal(live[0].state, 'lesson: step 3 of 6');
  assert.equal(live[1].state, 'lesson finished');
  const [row] = reportRows({ reports: [{ name: 'report-4-20261124T100000Z.json', kind: 'lesson', trainee: 'Ada',
    session: 'session 4 (t250, first_lesson)', outcome: 'completed', elapsed_s: 95, total: 0, delivered: 6, required: 6 }] });
  const texts = row.cells.map((c) => c.text);
  assert.ok(texts.includes('lesson completed'));
  assert.ok(texts.includes('6 / 6 steps'));
  assert.equal(row.cells[6].text, '–');   // a lesson has no points
});

test('the overview says when an instructor drives and how many faults are in force', async () => {
  const { instructorState } = await import('../js/instructor.js');
  assert.equal(instructorState({ control: { mode: 'trainee', holder: null }, faults: [] }), '');
  assert.equal(instructorState({ control: { mode: 'exclusive', holder: 'ann' }, faults: [] }), 'ann drives');
  assert.equal(instructorState({ control: { mode: 'shared', holder: 'ann' },
    faults: [{ name: 'burst_hose', text: 'burst hose: function boom' }] }), 'dual: ann · 1 fault');
  assert.equal(instructorState({}), '', 'an older server says nothing of it');
  const [row] = sessionRows({ sessions: [{ id: 4, model: 't250', control: { mode: 'exclusive', holder: 'ann' },
    faults: [{ name: 'turbidity', text: 'turbidity: level 0.7' }, { name: 'current', text: 'current: speed 0.3 m/s' }] }] });
  assert.equal(row.state, 'no task', 'the state stays the task\u2019s, for the row\u2019s colour');
  const cell = row.cells.find((c) => c.cls === 'state');
  assert.equal(cell.text, 'no task · ann drives · 2 faults');
  assert.equal(cell.title, 'turbidity: level 0.7\ncurrent: speed 0.3 m/s');
});

test('a machine that tipped over, and the load moment penalties per kind', () => {
  const [row] = sessionRows({ sessions: [{ id: 6, model: 't250', world: 'dam_intake',
    task: { ...task, finished: true, running: false, tipped_over: true, lmi_warnings: 2, lmi_cutouts: 1 } }] });
  assert.equal(row.state, 'tipped over');
  assert.deepEqual(row.cells.slice(6, 13).map((c) => c.text), ['1', '0', '0', '0', '0', '2', '1']);
  assert.equal(row.cells[12].count, 1);
});
