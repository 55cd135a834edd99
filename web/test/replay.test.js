import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  replayParam, replayUrl, replayPageUrl, takeoverParam, takeoverUrl, takeoverPageUrl,
  parseReplayInfo, parseReplayMessage, parseSeries, initialReplay, replayReduce, firstK, lastK, fractionOfK,
  kAtFraction, timeOfK, kAtTime, formatReplayTime, eventWords, timelineMarkers, replayBanner,
  speedChoices, progressWords, playCommand, plotData, playMessage, speedMessage, seekMessage, takeOverMessage,
  replayTicketMessage, SPEEDS, takenOverNotice,
} from '../js/replay.js';
import { readFileSync } from 'node:fs';
import { EVENT_KINDS, eventKind } from '../js/event-kinds.js';
import { parseServerMessage } from '../js/protocol.js';
import { reportRows } from '../js/instructor.js';

// local times in the banner: a zone an hour ahead of UTC in November
process.env.TZ = 'Europe/Berlin';

const HELLO_REPLAY = { recording: 'session-20261124T172755Z-3.mcap', label: 'session 3 (t250, dam_intake)', trainee: 'Ada',
  frames: 1201, frame_period_s: 0.05, start_utc: '2026-11-24T17:27:55Z', speeds: [0.25, 0.5, 1, 2, 4, 8, 16] };

test('?replay=NAME[&ticket=T][&from=K] makes the page a replay', () => {
  assert.deepEqual(replayParam('?replay=session-20261124T172755Z-3.mcap'),
    { name: 'session-20261124T172755Z-3.mcap', ticket: null, from: null });
  assert.deepEqual(replayParam('?replay=a.mcap&ticket=ab12&from=340'), { name: 'a.mcap', ticket: 'ab12', from: 340 });
  assert.equal(replayParam('?replay=a.mcap&from=-3').from, null, 'a malformed start is ignored');
  assert.equal(replayParam('?replay=a.mcap&from=x').from, null);
  assert.equal(replayParam('?replay='), null);
  assert.equal(replayParam('?observe=3'), null);
  assert.equal(replayParam(''), null);
});

test('the WebSocket URL carries the recording and the ticket, and keeps the rest', () => {
  assert.equal(replayUrl('ws://127.0.0.1:8080/ws', { name: 'session-1.mcap' }), 'ws://127.0.0.1:8080/ws?replay=session-1.mcap');
  assert.equal(replayUrl('wss://h/ws?x=1', { name: 'a b.mcap', ticket: 'T1' }), 'wss://h/ws?x=1&replay=a+b.mcap&ticket=T1');
  assert.equal(replayPageUrl('session-1.mcap'), 'index.html?replay=session-1.mcap');
  assert.equal(replayPageUrl('session-1.mcap', { ticket: 'T&1' }), 'index.html?replay=session-1.mcap&ticket=T%261');
  assert.equal(replayPageUrl('session-1.mcap', { from: 0 }), 'index.html?replay=session-1.mcap&from=0');
  assert.equal(replayPageUrl('session-1.mcap', { from: null }), 'index.html?replay=session-1.mcap');
  // the page's own parser reads what the builder writes
  assert.deepEqual(replayParam(replayPageUrl('x y.mcap', { ticket: 't', from: 12 }).slice('index.html'.length)),
    { name: 'x y.mcap', ticket: 't', from: 12 });
});

test('?takeover=T: the live page passes the ticket on to /ws', () => {
  assert.equal(takeoverParam('?takeover=abc'), 'abc');
  assert.equal(takeoverParam('?takeover='), null);
  assert.equal(takeoverParam('?view=top'), null);
  assert.equal(takeoverUrl('ws://h:1/ws?class=abc', 'T9'), 'ws://h:1/ws?class=abc&takeover=T9');
  assert.equal(takeoverPageUrl('T9'), 'index.html?takeover=T9');
});

test('what the page sends', () => {
  assert.deepEqual(playMessage(true), { type: 'replay', play: true });
  assert.deepEqual(playMessage(0), { type: 'replay', play: false });
  assert.deepEqual(speedMessage(4), { type: 'replay', speed: 4 });
  assert.deepEqual(seekMessage(122.6), { type: 'replay', seek_k: 123 });
  assert.deepEqual(takeOverMessage(), { type: 'take_over' });
  assert.deepEqual(replayTicketMessage(), { type: 'replay_ticket' });
});

test('protocol.js checks the replay messages and keeps hello.replay', () => {
  let r = parseServerMessage('{"type":"replay_progress","done":1,"of":9}');
  assert.deepEqual(r, { ok: true, msg: { type: 'replay_progress', done: 1, of: 9 } });
  r = parseServerMessage('{"type":"take_over"}');
  assert.equal(r.ok, false, 'a take_over without its ticket is refused');
  r = parseServerMessage('{"recording":"a.mcap","ticket":"x","type":"replay_ticket"}');
  assert.deepEqual(r.msg, { type: 'replay_ticket', recording: 'a.mcap', ticket: 'x' });
  r = parseServerMessage('{"type":"replay_state","playing":true,"speed":4,"k":12}');
  assert.deepEqual(r.msg, { type: 'replay_state', playing: true, speed: 4, k: 12 });
});

test('hello.replay: the recording, with defaults for what is missing', () => {
  const info = parseReplayInfo(HELLO_REPLAY);
  assert.equal(info.recording, 'session-20261124T172755Z-3.mcap');
  assert.equal(info.trainee, 'Ada');
  assert.equal(info.frames, 1201);
  assert.equal(info.framePeriodS, 0.05);
  assert.deepEqual(info.speeds, SPEEDS);
  const bare = parseReplayInfo({ recording: 'x.mcap', frame_period_s: 0.1 });
  assert.deepEqual([bare.trainee, bare.frames, bare.framePeriodS, bare.speeds], ['', 0, 0.1, SPEEDS]);
  assert.deepEqual(parseReplayInfo({ recording: 'x.mcap', frame_period_s: 0.05, speeds: [1, 'fast'] }).speeds, SPEEDS, 'a bad list: the default');
  // the frame period is the recording's, never guessed
  assert.equal(parseReplayInfo({ recording: 'x.mcap' }), null);
  assert.equal(parseReplayInfo(undefined), null);
  assert.equal(parseReplayInfo({ label: 'no name' }), null);
});

test('the banner says whose run, which session and when (local time)', () => {
  const info = parseReplayInfo(HELLO_REPLAY);
  assert.equal(replayBanner(info, 3), 'Replay of Ada’s run (session 3), recorded 2026-11-24 18:27');
  assert.equal(replayBanner({ ...info, trainee: '' }, 3), 'Replay of a run (session 3), recorded 2026-11-24 18:27');
  assert.equal(replayBanner({ ...info, startUtc: '' }, null), 'Replay of Ada’s run (session 3 (t250, dam_intake))');
  assert.equal(replayBanner(null, 3), 'Replay');
  assert.equal(replayBanner(parseReplayInfo({ ...HELLO_REPLAY, complete: false }), 3),
    'Replay of Ada’s run (session 3), recorded 2026-11-24 18:27 (unfinished recording)');
});

test('the messages are checked; a malformed one is null', () => {
  assert.deepEqual(parseReplayMessage({ type: 'replay_progress', done: 5, of: 10 }), { type: 'replay_progress', done: 5, of: 10 });
  assert.equal(parseReplayMessage({ type: 'replay_progress', done: '5', of: 10 }), null);
  assert.deepEqual(parseReplayMessage({ type: 'replay_state', playing: true, speed: 4, k: 33 }),
    { type: 'replay_state', playing: true, speed: 4, k: 33 });
  assert.equal(parseReplayMessage({ type: 'replay_state', playing: true, speed: 4 }), null, 'k is required');
  assert.deepEqual(parseReplayMessage({ type: 'take_over', ticket: 'T' }), { type: 'take_over', ticket: 'T' });
  assert.equal(parseReplayMessage({ type: 'take_over' }), null);
  assert.deepEqual(parseReplayMessage({ type: 'replay_ticket', recording: 'a.mcap', ticket: 'T' }),
    { type: 'replay_ticket', recording: 'a.mcap', ticket: 'T' });
  const tl = parseReplayMessage({ type: 'replay_timeline',
    events: [{ k: 40, t: 1.95, kind: 'rack_gate_hit', text: 'Rack or gate hit' }, { k: 'x', kind: 'grip' }, null],
    series: { k: [1, 21, 41], t: [0, 1, 2], tension_N: [[1000, 2000, 3000], [500, 600]], joint_velocity: [[0, 0.1, 0.2], [0, 0, 0], [0, 0, 0.1]] } });
  assert.equal(tl.events.length, 1, 'events without a whole k are dropped');
  assert.equal(tl.events[0].value, null);
  assert.equal(parseReplayMessage({ type: 'replay_timeline', events: [{ k: 3, t: 0.15, kind: 'grip', value: 2 }] }).events[0].value, 2);
  assert.deepEqual(tl.series.tension, [[1000, 2000, 3000], null], 'a channel of the wrong length is dropped');
  assert.equal(parseSeries({ k: [1, 2], t: [0] }), null);
  assert.equal(parseSeries(undefined), null);
});

test('the state after each message: preparing, ready, playing, the frame shown', () => {
  let s = initialReplay();
  s = replayReduce(s, { type: 'hello', session: 3, replay: HELLO_REPLAY, loads: [{ id: 0, name: 'log1' }, { id: 7 }] });
  assert.equal(s.info.frames, 1201);
  assert.deepEqual(s.loads, ['log1', '7'], "the scene's load names, by index");
  assert.equal(s.session, 3);
  assert.equal(s.ready, false);
  s = replayReduce(s, { type: 'replay_progress', done: 600, of: 1201 });
  assert.deepEqual(s.progress, { done: 600, of: 1201 });
  s = replayReduce(s, parseReplayMessage({ type: 'replay_timeline', events: [{ k: 40, t: 1.95, kind: 'grip', text: 'x' }],
    series: { k: [1, 1201], t: [0, 60] } }));
  assert.equal(s.ready, true);
  assert.equal(s.progress, null);
  assert.equal(s.events.length, 1);
  s = replayReduce(s, { type: 'replay_state', playing: true, speed: 2, k: 1 });
  assert.deepEqual([s.playing, s.speed, s.k], [true, 2, 1]);
  s = replayReduce(s, { type: 'display', seq: 99 });
  assert.equal(s.k, 100, 'display.seq is k - 1');
  s = replayReduce(s, { type: 'error', code: 'bad_message', message: 'seek_k: out of range' });
  assert.equal(s.error, 'seek_k: out of range');
  assert.equal(replayReduce(s, { type: 'pong' }), s, 'other messages change nothing');
  // a reconnect: prepared again, the speed kept
  s = replayReduce(s, { type: 'hello', session: 3, replay: HELLO_REPLAY });
  assert.deepEqual([s.ready, s.events.length, s.speed], [false, 0, 2]);
});

test('play: pause while playing, from the start again at the end', () => {
  const s = { ...initialReplay(), info: parseReplayInfo(HELLO_REPLAY), ready: true, k: 500 };
  assert.deepEqual(playCommand(s), { type: 'replay', play: true });
  assert.deepEqual(playCommand({ ...s, playing: true }), { type: 'replay', play: false });
  assert.deepEqual(playCommand({ ...s, k: 1201 }), { type: 'replay', seek_k: 1, play: true });
});

test('timeline positions: frame k along the bar, and back', () => {
  const s = { ...initialReplay(), info: parseReplayInfo(HELLO_REPLAY) };
  assert.equal(firstK(s), 1);
  assert.equal(lastK(s), 1201);
  assert.equal(fractionOfK(1, 1, 1201), 0);
  assert.equal(fractionOfK(601, 1, 1201), 0.5);
  assert.equal(fractionOfK(1201, 1, 1201), 1);
  assert.equal(fractionOfK(5000, 1, 1201), 1, 'clamped');
  assert.equal(fractionOfK(5, 1, 1), 0, 'a one-frame recording');
  assert.equal(kAtFraction(0.5, 1, 1201), 601);
  assert.equal(kAtFraction(-1, 1, 1201), 1);
  assert.equal(firstK({ ...s, series: { k: [0, 10], t: [0, 0.5] } }), 0, 'the series says where frames start');
});

test('time of a frame: from the series, else (k - 1) periods; and the frame at a time', () => {
  assert.equal(timeOfK(1, null, 0.05), 0);
  assert.ok(Math.abs(timeOfK(21, null, 0.05) - 1) < 1e-12);
  const series = { k: [1, 21, 41], t: [0, 1, 2.5] };   // a gap the server measured
  assert.equal(timeOfK(31, series, 0.05), 1.75);
  assert.equal(timeOfK(41, series, 0.05), 2.5);
  assert.ok(Math.abs(timeOfK(51, series, 0.05) - 3) < 1e-12, 'past the last point: periods on');
  assert.equal(kAtTime(1.75, series), 31);
  assert.equal(kAtTime(-5, series), 1);
  assert.equal(kAtTime(99, series), 41);
  assert.equal(kAtTime(1, null, 0.05), 21);
});

test('times read as minutes, seconds and a tenth', () => {
  assert.equal(formatReplayTime(0), '0:00.0');
  assert.equal(formatReplayTime(65.34), '1:05.3');
  assert.equal(formatReplayTime(59.96), '1:00.0');
  assert.equal(formatReplayTime(3725.5), '1:02:05.5');
  assert.equal(formatReplayTime(NaN), '–');
});

test('every event kind of the protocol has a word, a colour and an icon', () => {
  // the replay timeline's kinds (the wire schema) and the shipped task's penalty kinds (its
  // "<kind>_points"): every one has its words, and the table has no others
  const json = (rel) => JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8'));
  const schema = json('../data/wire-schema.json');
  const timeline = schema.$defs.replay_timeline.properties.events.items.properties.kind.enum;
  const points = Object.keys(json('../../config/scenarios/dam_intake.json').task.penalties);
  const penalties = points.filter((k) => k.endsWith('_points')).map((k) => k.slice(0, -'_points'.length));
  const kinds = [...new Set([...timeline, ...penalties])];
  assert.ok(penalties.includes('rack_gate_hit') && timeline.includes('grip'), 'both lists read');
  assert.deepEqual(Object.keys(EVENT_KINDS).sort(), kinds.sort());
  for (const k of kinds) {
    const e = eventKind(k);
    assert.ok(e.word && /^#[0-9a-f]{6}$/.test(e.colour) && e.icon, k);
  }
  assert.equal(eventKind('rack_gate_hit').group, 'penalty');
  assert.equal(eventKind('control').word, 'Take-over (controls)');
  assert.equal(eventKind('new_kind').word, 'new kind', 'an unknown kind is still shown');
  assert.equal(eventKind('lesson_step').word, 'Lesson: next step');
  // the load moment's levels are penalties (tall markers); the machine's own events apart
  assert.deepEqual(['lmi_warning', 'lmi_cutout', 'two_block', 'tip_over'].map((k) => eventKind(k).group),
    ['penalty', 'penalty', 'machine', 'machine']);
  assert.equal(eventKind('tip_over').word, 'Tipped over');
});

test("an event in words: its time and the server's sentence", () => {
  assert.deepEqual(eventWords({ k: 40, t: 65.3, kind: 'rack_gate_hit', text: 'Rack or gate hit' }),
    { time: '1:05.3', text: 'Rack or gate hit', title: '1:05.3  Hit the trash rack or gate: Rack or gate hit' });
  assert.equal(eventWords({ k: 21, t: null, kind: 'grip', text: '' }, null, 0.05).text, 'Gripped a load', 'no text: the kind');
  assert.equal(eventWords({ k: 21, t: null, kind: 'grip', text: '' }, null, 0.05).time, '0:01.0', 'no t: from k');
  // no sentence: the value says more (the server's timeline carries it as the observers' events do)
  const loads = ['log1', 'log2'];
  assert.equal(eventWords({ k: 2, t: 0, kind: 'grip', text: '', value: 1 }, null, 0.05, loads).text, 'Gripped log2');
  assert.equal(eventWords({ k: 2, t: 0, kind: 'release', text: '', value: -1 }, null, 0.05, loads).text, 'Let go of a load');
  assert.equal(eventWords({ k: 2, t: 0, kind: 'rack_gate_hit', text: '', value: 2 }).text, 'Hit the trash rack or gate (x2)');
  assert.equal(eventWords({ k: 2, t: 0, kind: 'structure_hit', text: '', value: 1 }).text, 'Hit the structure (deck, walls, truck)');
  assert.equal(eventWords({ k: 2, t: 0, kind: 'delivered', text: '', value: 2 }).text, 'Delivered a load (2 so far)');
  assert.equal(eventWords({ k: 2, t: 0, kind: 'lesson_step', text: '', value: 1 }).text, 'Lesson: step 2');
  assert.equal(eventWords({ k: 2, t: 0, kind: 'control', text: 'exclusive (bob)', value: 0 }).text, 'exclusive (bob)');
});

test('timeline markers: where, how tall, and events too close to tell apart share one', () => {
  const events = [
    { k: 1, t: 0, kind: 'grip', text: 'Gripped log-1' },
    { k: 601, t: 30, kind: 'rack_gate_hit', text: 'Rack or gate hit' },
    { k: 602, t: 30.05, kind: 'load_impact', text: 'Log-1 struck the rack' },
    { k: 598, t: 29.85, kind: 'control', text: 'Instructor ann took the controls' },
    { k: 1201, t: 60, kind: 'task_finished', text: '' },
  ];
  const m = timelineMarkers(events, { first: 1, last: 1201, width: 500 });
  assert.deepEqual(m.map((x) => [x.k, x.kind, x.at, x.tall, x.count]), [
    [1, 'grip', 0, false, 1],
    [598, 'rack_gate_hit', 597 / 1200, true, 3],
    [1201, 'task_finished', 1, false, 1],
  ], 'the cluster goes to its first event and shows the penalty in it');
  assert.equal(m[1].colour, EVENT_KINDS.rack_gate_hit.colour);
  assert.match(m[1].title, /^0:29\.9 {2}Take-over \(controls\): Instructor ann took the controls\n0:30\.0 {2}Hit the trash rack or gate: Rack or gate hit\n0:30\.1 /);
  assert.equal(timelineMarkers(events, { first: 1, last: 1201, width: 100000 }).length, 5, 'wide enough: all of them');
  assert.deepEqual(timelineMarkers([], { first: 1, last: 10 }), []);
});

test('speeds 0.25x to 16x, and the preparation in words', () => {
  assert.deepEqual(speedChoices().map((c) => c.label), ['0.25x', '0.5x', '1x', '2x', '4x', '8x', '16x']);
  assert.deepEqual(speedChoices([1, 2]), [{ value: 1, label: '1x' }, { value: 2, label: '2x' }]);
  assert.equal(progressWords(null), 'Waiting for the server…');
  assert.equal(progressWords({ done: 450, of: 1000 }), '45 %: 450 of 1000 frames re-simulated');
  assert.equal(progressWords({ done: 2000, of: 1000 }).startsWith('100 %'), true);
});

test('series to uPlot data: tensions in kN, swing and boom in deg/s, telescope in m/s (as display frames)', () => {
  const series = parseSeries({ k: [1, 2], t: [0, 0.05], tension_N: [[12000, 15000], [8000, 9000]],
    joint_velocity: [[1, 0], [0, -2], [0.1, 0.2]] });
  const d = plotData(series);
  assert.deepEqual(d.tension, [[0, 0.05], [12, 15], [8, 9]]);
  assert.deepEqual(d.speeds, [[0, 0.05], [1, 0], [0, -2], [0.1, 0.2]]);
  const partial = plotData(parseSeries({ k: [1, 2], t: [0, 1], tension_N: [[1, 2]] }));
  assert.deepEqual(partial.tension[2], [null, null], 'a missing rope: nulls, the legend stays');
  assert.deepEqual(partial.speeds[1], [null, null]);
  assert.equal(plotData(null), null);
});

test("the instructor's report list: a Replay link from where the attempt began", () => {
  const [row, plain] = reportRows({ reports: [
    { name: 'report-3-20261124T173500Z.json', session: 'session 3 (t250, dam_intake)', trainee: 'Ada', ended_utc: '2026-11-24T17:35:00Z',
      outcome: 'completed', elapsed_s: 300, total: 80, delivered: 3, required: 3,
      recording: 'session-20261124T172755Z-3.mcap', recording_from_k: 4321 },
    { name: 'report-2-20261124T170000Z.json', outcome: 'timed_out', total: 0, delivered: 0, required: 3 },
  ] });
  const replay = row.cells[7].links.find((l) => l.cls === 'replay');
  assert.deepEqual(replay, { href: 'index.html?replay=session-20261124T172755Z-3.mcap&from=4321', text: 'Replay', cls: 'replay' });
  assert.equal(plain.cells[7].links.some((l) => l.cls === 'replay'), false, 'no recording: no link');
});

test('a taken-over session says from when it goes on', () => {
  const n = takenOverNotice({ recording: 'session-20261125T044000Z-1.mcap', k: 57 }, 0.05);
  assert.equal(n.from, 'Take-over');
  assert.match(n.text, /^you have the controls from 0:02\.9 of the replayed run/);
  assert.match(takenOverNotice({}).text, /from – of/);
});
