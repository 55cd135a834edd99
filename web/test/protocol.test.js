import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseServerMessage, controlMessage, pingMessage, restartMessage, clampVolts, SIGNALS, PROTOCOL_VERSION,
  frameRateParam, withFrameRate, frameRateRefusal,
} from '../js/protocol.js';
import { readFileSync } from 'node:fs';

// messages shaped like the server's (server/web/frame_json.cc, config/scene.json)
const fixture = (name) => JSON.parse(readFileSync(new URL(`fixtures/${name}.json`, import.meta.url), 'utf8'));
const helloObject = () => fixture('hello');
const displayObject = () => fixture('display');

// as the page parses: every message after the hello read by its display field names
const parse = (o) => parseServerMessage(typeof o === 'string' ? o : JSON.stringify(o),
  { displayFields: helloObject().display_fields });

test('a valid display keeps Table 4.1 in order and the extended fields', () => {
  const r = parse(displayObject());
  assert.equal(r.ok, true, r.error);
  assert.deepEqual(r.msg.display, [12.5, 30.0, 12.0, 8.0, 50.0, 8.0, 10.03, 0.0]);
  assert.equal(r.msg.seq, 42);
  assert.deepEqual(r.msg.tension_N, [2342, 5261]);
  assert.equal(r.msg.working, 'Free');
  assert.equal(r.msg.theta2_deg, 40);
  assert.deepEqual(r.msg.point_c_m, [9.160734, 2.086076, -1.63013]);
  assert.equal(r.msg.loads.length, 2);
  assert.deepEqual(r.msg.warnings, []);
});

test('display v2: the world, the contacts, the events and the score', () => {
  const r = parse(displayObject());
  assert.equal(r.ok, true, r.error);
  const f = r.msg;
  assert.deepEqual(f.clam_swing_deg, [1.5, -0.25]);
  assert.equal(f.clam_orientation.length, 4);
  assert.ok(Math.abs(Math.hypot(...f.clam_orientation) - 1) < 1e-12, 'normalised');
  assert.equal(f.clam_submerged, 0);
  assert.deepEqual(f.loads[0], { id: 'log-1', position_m: [12.5, 0.4, -20.7],
    orientation: [0.7071, 0, 0, 0.7071].map((x) => x / Math.hypot(0.7071, 0.7071)), held: false, in_contact: true, submerged: 1 });
  assert.equal(f.loads[1].held, true);
  assert.equal(f.held_load, 1);
  assert.equal(f.contacts.length, 2);
  assert.deepEqual(f.contacts[1], { position_m: [11, 0.2, -6], force_N: 3200, pair: 'clam-world', solid: 'trash rack', load: null });
  assert.equal(f.contacts[0].load, 0);
  assert.equal(f.events.rack_gate_hits, 1);
  assert.equal(f.score.enabled, true);
  assert.equal(f.score.elapsed_s, 95.43);
  assert.equal(f.score.required, 2);
  assert.equal(f.score.finished, false);
});

test('display v2: a task-less score is just {enabled: false}; a bad one is dropped and named', () => {
  assert.deepEqual(parse({ ...displayObject(), score: { enabled: false } }).msg.score, { enabled: false });
  const bad = parse({ ...displayObject(), score: { enabled: true, elapsed_s: 'x' } });
  assert.equal(bad.ok, true);
  assert.equal(bad.msg.score, undefined);
  assert.match(bad.msg.warnings[0], /display\.score\.elapsed_s/);
});

test('a display with only the required fields is accepted (a 2001-style frame)', () => {
  const r = parse({ type: 'display', seq: 0, t: 0, display: [0, 30, 12, 8, 50, 8, 10, 0] });
  assert.equal(r.ok, true, r.error);
  // Table 4.1 read by the hello's names, never by index
  assert.equal(r.msg.values.cable2_m, 10);
  assert.equal(r.msg.values.load_kg, 0);
  const before = parseServerMessage(JSON.stringify({ type: 'display', seq: 0, t: 0, display: [0, 30, 12, 8, 50, 8, 10, 0] }));
  assert.equal(before.msg.values, null, 'no hello yet: no names');
  assert.equal(parseServerMessage(JSON.stringify({ ...helloObject(), display_fields: 'x' })).ok, false, 'a hello without names is refused');
  assert.equal(r.msg.tip_m, undefined);
  assert.deepEqual(r.msg.loads, []);
  assert.deepEqual(r.msg.contacts, []);
  assert.equal(r.msg.held_load, null);
  assert.equal(r.msg.score, undefined);
});

test('malformed displays are refused, naming the field', () => {
  const cases = [
    [{ display: [1, 2, 3] }, /display\.display: expected 8 values \(hello\.display_fields\)/],
    [{ display: [0, 30, 12, 8, 50, 8, null, 0] }, /display\[6\] \(cable2_m\)/],
    [{ display: [0, 30, 12, 8, 50, 8, 'x', 0] }, /display\[6\]/],
    [{ seq: -1 }, /display\.seq/],
    [{ seq: 1.5 }, /display\.seq/],
    [{ t: 'now' }, /display\.t/],
  ];
  for (const [patch, re] of cases) {
    const r = parse({ ...displayObject(), ...patch });
    assert.equal(r.ok, false, JSON.stringify(patch));
    assert.match(r.error, re);
  }
  const noDisplay = displayObject();
  delete noDisplay.display;
  assert.match(parse(noDisplay).error, /display\.display/);
});

test('a malformed extended field is dropped and named, the frame is kept', () => {
  const cases = [
    [{ tension_N: [1] }, 'tension_N', /display\.tension_N/],
    [{ tip_m: [1, 2] }, 'tip_m', /display\.tip_m/],
    [{ working: 3 }, 'working', /display\.working/],
    [{ theta2_deg: null }, 'theta2_deg', /display\.theta2_deg/],
    [{ loads: {} }, 'loads', /display\.loads/],
    [{ loads: [{ radius_m: 1 }] }, 'loads', /loads\[0\]\.id: expected a string or a number/],
    [{ loads: [{ id: 'a', position_m: [1, 2, 3], orientation: [0, 0, 0, 0], held: false, in_contact: false }] }, 'loads', /loads\[0\]\.orientation: expected a unit quaternion/],
    [{ loads: [{ id: 'a', position_m: [1, 2, 3], orientation: [1, 0, 0, 0], held: 1, in_contact: false }] }, 'loads', /loads\[0\]\.held: expected true or false/],
    [{ clam_orientation: [1, 0, 0] }, 'clam_orientation', /display\.clam_orientation/],
    [{ contacts: [{ position_m: [0, 0, 0], force_N: 5 }] }, 'contacts', /contacts\[0\]\.pair: missing/],
    [{ events: { grips: -1 } }, 'events', /display\.events\.grips/],
  ];
  for (const [patch, field, re] of cases) {
    const r = parse({ ...displayObject(), ...patch });
    assert.equal(r.ok, true, JSON.stringify(patch));
    assert.equal(r.msg.warnings.length, 1);
    assert.match(r.msg.warnings[0], re);
    assert.deepEqual(r.msg[field], field === 'loads' || field === 'contacts' ? [] : undefined);
    assert.deepEqual(r.msg.display, displayObject().display);
  }
  assert.deepEqual(parse(displayObject()).msg.warnings, []);
});

test('non-JSON, non-objects, missing or unknown types are refused without throwing', () => {
  assert.match(parse('{').error, /not JSON/);
  assert.match(parse('[1,2]').error, /not a JSON object/);
  assert.match(parse('null').error, /not a JSON object/);
  assert.match(parse({ seq: 1 }).error, /type: missing/);
  assert.match(parse({ type: 'teleport' }).error, /unknown message type "teleport"/);
  assert.match(parseServerMessage(new ArrayBuffer(4)).error, /binary/);
});

test('hello: machine and scene are checked and normalised', () => {
  const r = parse(helloObject());
  assert.equal(r.ok, true, r.error);
  const { machine, scene } = r.msg;
  assert.equal(machine.crane.d1_m, 2.4);
  assert.deepEqual(machine.crane.links.boom_base.box_m, [0.4, 0.6, 9.7]);
  assert.equal(machine.cables.length, 2);
  assert.equal(machine.clam.theta2_closed_deg, 65);
  assert.equal(scene.water_level_m, -2.5);
  assert.equal(scene.trash_rack.bar_spacing_m, 0.15);
  assert.equal(scene.intake_walls.length, 2);
  assert.equal(scene.reservoir.size_m[0], 70);
  assert.equal(scene.truck_bed.yaw_deg, 0);
});

test('hello: the loads and the task of the scene', () => {
  const r = parse(helloObject());
  const { loads, task, water } = r.msg.scene;
  assert.equal(loads.length, 5);
  assert.deepEqual(loads[0], { id: 'log-1', name: 'spruce log', shape: 'cylinder', mass_kg: 1200, radius_m: 0.3, length_m: 8, index: 0 });
  assert.deepEqual(loads[4].size_m, [1.2, 0.8, 0.8]);
  assert.equal(task.title, 'Clear the rack');
  assert.deepEqual(task.loads, ['log-1', 'log-2']);
  assert.equal(task.optimum_s, 300);
  assert.equal(water.density_kg_per_m3, 1000);
  assert.deepEqual(r.msg.warnings, []);
});

test('hello: a malformed load is left out and named, the rest are kept', () => {
  const h = helloObject();
  h.scene.loads[1].shape = 'torus';
  h.scene.loads[2].radius_m = -1;
  delete h.scene.loads[4].size_m;
  const r = parse(h);
  assert.equal(r.ok, true, r.error);
  assert.deepEqual(r.msg.scene.loads.map((l) => l.id), ['log-1', 'boulder']);
  assert.equal(r.msg.scene.loads[1].index, 3, 'index in the scene, as display.loads and contacts count');
  assert.equal(r.msg.warnings.length, 3);
  assert.match(r.msg.warnings[0], /hello\.scene\.loads\[1\]\.shape: expected one of cylinder, sphere, box/);
  assert.match(r.msg.warnings[1], /loads\[2\]\.radius_m: must be > 0/);
  assert.match(r.msg.warnings[2], /loads\[4\]\.size_m: missing/);
  const none = helloObject();
  delete none.scene.loads;
  delete none.scene.task;
  assert.deepEqual(parse(none).msg.scene.loads, []);
  assert.equal(parse(none).msg.scene.task, null);
});

test('report and restarting', () => {
  const r = parse({ type: 'report', v: 1, seq: 900, t: 45.1, report: { outcome: 'completed', total: 88 } });
  assert.equal(r.ok, true, r.error);
  assert.equal(r.msg.report.total, 88);
  assert.equal(r.msg.seq, 900);
  assert.match(parse({ type: 'report', v: 1 }).error, /report\.report: missing/);
  assert.deepEqual(parse({ type: 'restarting', id: 3 }).msg, { type: 'restarting', id: 3 });
  assert.equal(parse({ type: 'restarting' }).msg.id, null);
});

test('hello: cables as an object, optional scene parts and yaw are fine', () => {
  const h = helloObject();
  h.machine.cables = { cable1: h.machine.cables[0], cable2: h.machine.cables[1] };
  delete h.scene.gate;
  delete h.scene.reservoir;
  delete h.scene.deck.yaw_deg;
  const r = parse(h);
  assert.equal(r.ok, true, r.error);
  assert.equal(r.msg.machine.cables[1].drum_radius_m, 0.3);
  assert.equal(r.msg.scene.gate, null);
  assert.equal(r.msg.scene.deck.yaw_deg, 0);
});

test('hello: the channels\' relief settings, optional, five positive pressures', () => {
  const h = helloObject();
  delete h.machine.hydraulics;
  assert.equal(parse(h).msg.machine.hydraulics.relief_MPa, null, 'a server that sends none');
  h.machine.hydraulics = { relief_MPa: [28, 28, 28, 21, 21] };
  assert.deepEqual(parse(h).msg.machine.hydraulics.relief_MPa, [28, 28, 28, 21, 21]);
  h.machine.hydraulics = { relief_MPa: [28, 28, -1, 21, 21] };
  assert.match(parse(h).error, /hello\.machine\.hydraulics\.relief_MPa: expected five pressures > 0/);
  h.machine.hydraulics = { relief_MPa: [28] };
  assert.equal(parse(h).ok, false);
});

test('hello: the closing rope\'s parts, optional, a whole number from 1', () => {
  const h = helloObject();
  assert.equal(parse(h).msg.machine.clam.closing_parts, 4);
  delete h.machine.clam.closing_parts;
  assert.equal(parse(h).msg.machine.clam.closing_parts, undefined, 'an older server: one part');
  for (const bad of [0, 2.5, -1]) {
    h.machine.clam.closing_parts = bad;
    assert.match(parse(h).error, /hello\.machine\.clam\.closing_parts: must be a whole number of rope parts, at least 1/);
  }
});

test('hello: wrong protocol version and missing dimensions are named', () => {
  const v1 = { ...helloObject(), protocol: 1 };
  assert.match(parse(v1).error, /hello\.protocol: this client speaks version 2, the server 1/);
  assert.equal(PROTOCOL_VERSION, 2);
  const h = helloObject();
  delete h.machine.crane.d1_m;
  assert.match(parse(h).error, /hello\.machine\.crane\.d1_m: missing/);
  const h2 = helloObject();
  h2.machine.crane.links.telescopic.box_m = [0.3, 0, 9.7];
  assert.match(parse(h2).error, /telescopic\.box_m/);
  const h3 = helloObject();
  h3.scene.deck.size_m = [1, -2, 3];
  assert.match(parse(h3).error, /hello\.scene\.deck\.size_m/);
  const h4 = helloObject();
  h4.scene.water_level_m = 'high';
  assert.match(parse(h4).error, /water_level_m/);
  // an empty world (--world none): no water, nothing around the machine
  const h6 = helloObject();
  h6.scene = {};
  const empty = parse(h6);
  assert.equal(empty.ok, true, empty.error);
  assert.equal(empty.msg.scene.water_level_m, null);
  assert.deepEqual(empty.msg.scene.loads, []);
  const h5 = helloObject();
  h5.machine.cables = [h5.machine.cables[0]];
  assert.match(parse(h5).error, /cables: expected two cables/);
});

test('pong and error', () => {
  const p = parse({ type: 'pong', id: 7, t: 1234.5, sim_t: 2 });
  assert.equal(p.ok, true);
  assert.equal(p.msg.t, 1234.5);
  assert.match(parse({ type: 'pong', id: 7 }).error, /pong\.t: missing/);
  const e = parse({ type: 'error', code: 'bad_control', message: 'volts[2] (telescope) is not a finite number' });
  assert.equal(e.msg.code, 'bad_control');
});

test('control: five volts, clamped to +-5 V, non-finite sent as 0', () => {
  assert.equal(controlMessage([1, -2, 3.25, 0, 5]), '{"type":"control","volts":[1,-2,3.25,0,5]}');
  assert.deepEqual(JSON.parse(controlMessage([9, -9, NaN, Infinity, undefined])).volts, [5, -5, 0, 0, 0]);
  assert.deepEqual(clampVolts([1.23456]), [1.235, 0, 0, 0, 0]);
  assert.equal(SIGNALS.length, 5);
});

test('ping carries id and the client clock', () => {
  assert.deepEqual(JSON.parse(pingMessage(7, 1234.5)), { type: 'ping', id: 7, t: 1234.5 });
});

test('restart, with or without an id', () => {
  assert.equal(restartMessage(), '{"type":"restart"}');
  assert.deepEqual(JSON.parse(restartMessage(4)), { type: 'restart', id: 4 });
  assert.deepEqual(JSON.parse(restartMessage(5, true)), { type: 'restart', id: 5, practice: true });
});

test('trainee: the name the session now holds', () => {
  assert.deepEqual(parse({ type: 'trainee', name: 'Ada Lovelace' }).msg, { type: 'trainee', name: 'Ada Lovelace' });
  assert.match(parse({ type: 'trainee' }).error, /trainee\.name: missing/);
  assert.match(parse({ type: 'trainee', name: 7 }).error, /trainee\.name: expected a string/);
  const e = parse({ type: 'error', code: 'bad_trainee', message: 'the trainee\'s name is empty' });
  assert.deepEqual(e.msg, { type: 'error', code: 'bad_trainee', message: 'the trainee\'s name is empty' });
});

test('drain: seconds left and the server\'s sentence', () => {
  assert.deepEqual(parse({ type: 'drain', seconds_left: 42, message: 'ends in 42 s' }).msg,
    { type: 'drain', secondsLeft: 42, message: 'ends in 42 s' });
  assert.match(parse({ type: 'drain' }).error, /drain\.seconds_left: missing/);
  assert.match(parse({ type: 'drain', seconds_left: -1 }).error, /whole number/);
  assert.match(parse({ type: 'drain', seconds_left: 1.5 }).error, /whole number/);
  assert.equal(parse({ type: 'drain', seconds_left: 0 }).msg.message, '');
});

test('hello: the outrigger pads and the load moment indicator\'s levels', () => {
  const h = parse(helloObject()).msg;
  assert.deepEqual(h.machine.carrier, { outrigger_front_m: 2.6, outrigger_rear_m: 2.6, outrigger_half_span_m: 3.15, pad_height_m: 0 });
  assert.deepEqual(h.machine.load_moment, { warning_pct: 90, cutout_pct: 100 });
  assert.deepEqual(h.warnings, []);
  // an older server sends neither: null, and the hello is fine
  const old = helloObject();
  delete old.machine.carrier;
  delete old.machine.load_moment;
  const o = parse(old);
  assert.equal(o.ok, true, o.error);
  assert.equal(o.msg.machine.carrier, null);
  assert.equal(o.msg.machine.load_moment, null);
  // malformed: dropped and named, the machine is still drawn
  const bad = helloObject();
  bad.machine.carrier.outrigger_half_span_m = -1;
  bad.machine.load_moment = { warning_pct: 110, cutout_pct: 100 };
  const b = parse(bad);
  assert.equal(b.ok, true, b.error);
  assert.equal(b.msg.machine.carrier, null);
  assert.equal(b.msg.machine.load_moment, null);
  assert.match(b.msg.warnings.join('\n'), /hello\.machine\.carrier\.outrigger_half_span_m: must be > 0/);
  assert.match(b.msg.warnings.join('\n'), /hello\.machine\.load_moment\.warning_pct/);
});

test('display: the load moment indicator and the tilt', () => {
  const f = parse(displayObject()).msg;
  assert.equal(f.load_moment_pct, 43.3);
  assert.equal(f.hook_load_kg, 1300);
  assert.equal(f.rated_kg, 3000);
  assert.equal(f.radius_m, 12.4);
  assert.equal(f.lmi, 'ok');
  assert.equal(f.tilt_deg, 0);
  assert.equal(f.tilt_edge, 'none');
  assert.equal(f.tilt_axis, null);
  assert.equal(f.tipped_over, false);
  assert.equal(f.events.lmi_cutouts, 0);
  assert.deepEqual([f.score.lmi_warnings, f.score.lmi_cutouts, f.score.tipped_over], [0, 0, false]);
  const tipping = parse({ ...displayObject(), lmi: 'cutout', tilt_deg: 4.5, tilt_edge: 'left', tipped_over: true,
    tilt_axis: { point_m: [2.6, 3.15, 0], direction: [-2, 0, 0] },
    score: { ...displayObject().score, finished: true, running: false, tipped_over: true, lmi_cutouts: 1 } }).msg;
  assert.deepEqual(tipping.warnings, []);
  assert.equal(tipping.lmi, 'cutout');
  assert.deepEqual(tipping.tilt_axis, { point_m: [2.6, 3.15, 0], direction: [-1, 0, 0] }, 'the direction made a unit vector');
  assert.equal(tipping.tipped_over, true);
  assert.equal(tipping.score.tipped_over, true);
  assert.equal(tipping.score.lmi_cutouts, 1);
});

test('display: stability fields an older server lacks are named and take their defaults; malformed ones are dropped and named', () => {
  const old = displayObject();
  const stability = ['load_moment_pct', 'hook_load_kg', 'rated_kg', 'radius_m', 'lmi', 'tilt_deg', 'tilt_edge', 'tilt_axis', 'tipped_over'];
  for (const k of stability) delete old[k];
  delete old.score.lmi_warnings;
  delete old.score.lmi_cutouts;
  delete old.score.tipped_over;
  const o = parse(old).msg;
  assert.deepEqual(o.warnings, stability.map((k) => `display.${k}: missing`));
  assert.equal(o.load_moment_pct, undefined);
  assert.equal(o.lmi, undefined);
  assert.deepEqual([o.tilt_deg, o.tilt_edge, o.tilt_axis, o.tipped_over], [0, 'none', null, false]);
  // a count the server does not send is absent (the score panel counts it 0), not an error
  assert.deepEqual([o.score.lmi_warnings, o.score.lmi_cutouts, o.score.tipped_over], [undefined, undefined, false], 'an older score still parses');
  assert.equal(o.score.rack_gate_hits, old.score.rack_gate_hits);
  const badCount = parse({ ...old, score: { ...old.score, overloads: -1 } }).msg;
  assert.match(badCount.warnings.join('\n'), /score\.overloads: expected a count/, 'a malformed count is named');
  const bad = parse({ ...displayObject(), lmi: 'tripped', load_moment_pct: 'high', tipped_over: 'yes',
    tilt_axis: { point_m: [0, 0, 0], direction: [0, 0, 0] } });
  assert.equal(bad.ok, true);
  assert.equal(bad.msg.lmi, undefined);
  assert.equal(bad.msg.load_moment_pct, undefined);
  assert.equal(bad.msg.tipped_over, false);
  assert.equal(bad.msg.tilt_axis, null);
  const w = bad.msg.warnings.join('\n');
  assert.match(w, /display\.lmi: expected one of ok, warning, cutout/);
  assert.match(w, /display\.load_moment_pct/);
  assert.match(w, /display\.tipped_over/);
  assert.match(w, /display\.tilt_axis\.direction: expected a non-zero vector/);
});

test('display: the parts\' poses, the server\'s flags and control_seq', () => {
  const r = parse(displayObject());
  assert.equal(r.ok, true, r.error);
  const f = r.msg;
  assert.equal(f.parts.length, 11);
  for (const p of f.parts) {
    assert.equal(p.length, 7);
    assert.ok(Math.abs(Math.hypot(p[3], p[4], p[5], p[6]) - 1) < 1e-12, 'normalised');
  }
  assert.deepEqual(f.parts[0], [0, 0, 0, 1, 0, 0, 0]);
  assert.deepEqual(f.flags, { slack: [false, true], slack_m: [0, 0.62], overload: false, two_block: false });
  const negative = parse({ ...displayObject(), flags: { ...displayObject().flags, slack_m: [0, -1] } }).msg;
  assert.match(negative.warnings.join('\n'), /flags\.slack_m: expected two lengths >= 0/);
  assert.equal(f.control_seq, 17);
  // all optional: a frame without them has none
  const bare = parse({ type: 'display', seq: 0, t: 0, display: [0, 30, 12, 8, 50, 8, 10, 0] }).msg;
  assert.equal(bare.parts, undefined);
  assert.equal(bare.flags, undefined);
  assert.equal(bare.control_seq, undefined);
});

test('display: malformed parts, flags or control_seq are dropped and named, the frame kept', () => {
  const cases = [
    [{ parts: [[0, 0, 0, 1, 0, 0]] }, 'parts', /display\.parts\[0\]: expected \[x, y, z, qw, qx, qy, qz\]/],
    [{ parts: [[0, 0, 0, 0, 0, 0, 0]] }, 'parts', /display\.parts\[0\]: expected a unit quaternion/],
    [{ parts: 'x' }, 'parts', /display\.parts: expected an array/],
    [{ flags: { slack: [true], overload: false, two_block: false } }, 'flags', /display\.flags\.slack/],
    [{ flags: { slack: [true, false], overload: 1, two_block: false } }, 'flags', /display\.flags\.overload/],
    [{ control_seq: -1 }, 'control_seq', /display\.control_seq/],
    [{ control_seq: 2.5 }, 'control_seq', /display\.control_seq/],
  ];
  for (const [patch, key, re] of cases) {
    const r = parse({ ...displayObject(), ...patch });
    assert.equal(r.ok, true, JSON.stringify(patch));
    assert.equal(r.msg[key], undefined);
    assert.match(r.msg.warnings[0], re);
  }
});

test('hello: the parts\' names, the frame rates offered and the limits', () => {
  const h = parse(helloObject()).msg;
  assert.deepEqual(h.parts, ['carrier', 'superstructure', 'boom_base', 'fly', 'clam_head', 'arm_right', 'arm_left',
    'shell_right', 'shell_left', 'boom_cylinder', 'boom_rod']);
  assert.deepEqual(h.frame_rates_hz, [20, 30, 60]);
  assert.deepEqual(h.limits, { max_message_bytes: 4096, max_messages_per_s: 200 });
  assert.deepEqual(h.warnings, []);
  const bare = helloObject();
  delete bare.parts;
  delete bare.frame_rates_hz;
  delete bare.limits;
  const b = parse(bare).msg;
  assert.equal(b.parts, null);
  assert.deepEqual(b.frame_rates_hz, []);
  assert.equal(b.limits, null);
  const bad = parse({ ...helloObject(), parts: ['fly', 'fly'], limits: { max_messages_per_s: -1 } });
  assert.equal(bad.ok, true);
  assert.equal(bad.msg.parts, null);
  assert.equal(bad.msg.limits, null);
  assert.equal(bad.msg.warnings.length, 2);
});

test('?rate=: from the page\'s URL to its WebSocket; a refusal is recognised', () => {
  assert.equal(frameRateParam('?rate=60&view=top'), '60');
  assert.equal(frameRateParam('?view=top'), null);
  assert.equal(frameRateParam('?rate='), null);
  assert.equal(withFrameRate('ws://h:1/ws?scenario=x', '60'), 'ws://h:1/ws?scenario=x&rate=60');
  assert.equal(withFrameRate('ws://h:1/ws', null), 'ws://h:1/ws');
  assert.equal(frameRateRefusal(1008, "rate: '45' is not a frame rate this server offers; choose one of 20, 30, 60 (frames per second)"),
    "rate: '45' is not a frame rate this server offers; choose one of 20, 30, 60 (frames per second)");
  assert.equal(frameRateRefusal(1008, 'class code: wrong'), null);
  assert.equal(frameRateRefusal(1006, 'rate: x'), null);
});

test('hello: the boom cylinder is optional; a malformed one is null and named', () => {
  assert.deepEqual(parse(helloObject()).msg.machine.crane.boom_cylinder, { retracted_m: 2.0358, extended_m: 3.3879, bore_m: 0.2828 });
  const none = helloObject();
  delete none.machine.crane.boom_cylinder;
  assert.equal(parse(none).msg.machine.crane.boom_cylinder, null);
  const bad = helloObject();
  bad.machine.crane.boom_cylinder.bore_m = 0;
  const r = parse(bad);
  assert.equal(r.ok, true);
  assert.equal(r.msg.machine.crane.boom_cylinder, null);
  assert.match(r.msg.warnings[0], /hello\.machine\.crane\.boom_cylinder\.bore_m/);
});

test('hello: the counterweight is the model\'s block in frame 1; a malformed one is null and named', () => {
  assert.deepEqual(parse(helloObject()).msg.machine.crane.counterweight, { mass_kg: 4000, com_m: [-1.7, -1.2, 0], box_m: [0.8, 0.7, 2.4] });
  const none = helloObject();
  delete none.machine.crane.counterweight;
  assert.equal(parse(none).msg.machine.crane.counterweight, null);
  const bad = helloObject();
  bad.machine.crane.counterweight.box_m = [0.8, -1, 2.4];
  const r = parse(bad);
  assert.equal(r.ok, true);
  assert.equal(r.msg.machine.crane.counterweight, null);
  assert.match(r.msg.warnings[0], /hello\.machine\.crane\.counterweight\.box_m: sizes must be > 0/);
});

test('hello: the ropes\' reeving and the bucket width are optional; a malformed reeving is null and named', () => {
  // a server that predates them: the hanging part only, a bucket as wide as link 2 (scene.js)
  const older = helloObject();
  older.machine.cables.forEach((c) => { delete c.reeving; });
  delete older.machine.clam.bucket_width_m;
  const old = parse(older).msg.machine;
  assert.deepEqual(old.cables.map((c) => c.reeving), [null, null]);
  assert.equal(old.clam.bucket_width_m, undefined);
  const h = structuredClone(older);
  const anchors = [{ part: 'superstructure', at: [-1.2, -0.5, 0] }, { part: 'boom_base', at: [0.5, 0, 0.6] },
    { part: 'fly', at: [0, 0, 0] }];
  h.machine.cables.forEach((c) => { c.reeving = anchors; });
  h.machine.clam.bucket_width_m = 1.2;
  const r = parse(h);
  assert.equal(r.ok, true, r.error);
  assert.deepEqual(r.msg.machine.cables[0].reeving, anchors);
  assert.equal(r.msg.machine.clam.bucket_width_m, 1.2);
  assert.deepEqual(r.msg.warnings, []);
  const bad = helloObject();
  bad.machine.cables[1].reeving = [{ part: 'superstructure', at: [0, 0] }, { part: 'fly', at: [0, 0, 0] }];
  const b = parse(bad);
  assert.equal(b.ok, true);
  assert.equal(b.msg.machine.cables[1].reeving, null);
  assert.match(b.msg.warnings[0], /hello\.machine\.cables\[1\]\.reeving\[0\]\.at/);
  const narrow = helloObject();
  narrow.machine.clam.bucket_width_m = 0;
  assert.match(parse(narrow).error, /hello\.machine\.clam\.bucket_width_m: must be > 0/);
});

test('hello: a lesson step keeps its label for the list, and a step without one has none', () => {
  const h = helloObject();
  h.scene.lesson = { title: 'L', steps: [
    { goal: 'Open the jaws at half speed, let go at 50 deg', label: 'Open the jaws', controls: [], check: { kind: 'jaws_opened' } },
    { goal: 'Lift', controls: [], check: { kind: 'load_lifted' } }] };
  const r = parse(h);
  assert.equal(r.ok, true, r.error);
  assert.equal(r.msg.scene.lesson.steps[0].label, 'Open the jaws');
  assert.equal(r.msg.scene.lesson.steps[1].label, undefined);
});
