import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseServerMessage, controlMessage, pingMessage, clampVolts, DISPLAY_FIELDS, SIGNALS } from '../js/protocol.js';
import { readFileSync } from 'node:fs';

// messages shaped like the server's (server/web/frame_json.cc, config/scene.json)
const fixture = (name) => JSON.parse(readFileSync(new URL(`fixtures/${name}.json`, import.meta.url), 'utf8'));
const helloObject = () => fixture('hello');
const displayObject = () => fixture('display');

const parse = (o) => parseServerMessage(typeof o === 'string' ? o : JSON.stringify(o));

test('a valid display keeps Table 4.1 in order and the extended fields', () => {
  const r = parse(displayObject());
  assert.equal(r.ok, true, r.error);
  assert.deepEqual(r.msg.display, [12.5, 30.0, 12.0, 8.0, 50.0, 8.0, 10.03, 0.0]);
  assert.equal(r.msg.seq, 42);
  assert.deepEqual(r.msg.tension_N, [2342, 5261]);
  assert.equal(r.msg.working, 'Free');
  assert.equal(r.msg.theta2_deg, 40);
  assert.deepEqual(r.msg.point_c_m, [10.4, 0, -2.4]);
  assert.deepEqual(r.msg.loads, []);
});

test('a display with only the required fields is accepted (a 2001-style frame)', () => {
  const r = parse({ type: 'display', seq: 0, t: 0, display: [0, 30, 12, 8, 50, 8, 10, 0] });
  assert.equal(r.ok, true, r.error);
  assert.equal(r.msg.tip_m, undefined);
  assert.deepEqual(r.msg.loads, []);
});

test('malformed displays are refused, naming the field', () => {
  const cases = [
    [{ display: [1, 2, 3] }, /display\.display: expected 8 values/],
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
    [{ loads: [{ radius_m: 1 }] }, 'loads', /loads\[0\]\.center_m: missing/],
  ];
  for (const [patch, field, re] of cases) {
    const r = parse({ ...displayObject(), ...patch });
    assert.equal(r.ok, true, JSON.stringify(patch));
    assert.equal(r.msg.warnings.length, 1);
    assert.match(r.msg.warnings[0], re);
    assert.deepEqual(r.msg[field], field === 'loads' ? [] : undefined);
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

test('hello: wrong protocol version and missing dimensions are named', () => {
  const v2 = { ...helloObject(), protocol: 2 };
  assert.match(parse(v2).error, /hello\.protocol: this client speaks version 1/);
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
  delete h4.scene.water_level_m;
  assert.match(parse(h4).error, /water_level_m: missing/);
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
  assert.equal(DISPLAY_FIELDS.length, 8);
});

test('ping carries id and the client clock', () => {
  assert.deepEqual(JSON.parse(pingMessage(7, 1234.5)), { type: 'ping', id: 7, t: 1234.5 });
});
