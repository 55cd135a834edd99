// WebSocket protocol v2 (docs/websocket-protocol.md): check what the server sends, build
// what the client sends. No DOM, no three.js: the node tests import this file as is.

import { parseReplayMessage } from './replay.js';

export const PROTOCOL_VERSION = 2;
// Full stick, the most a control signal sends (section 4.3); a server whose hello says
// otherwise (limits.full_stick_V) is refused rather than driven at the wrong scale.
export const VOLT_LIMIT = 5;

// ControlSignal order (thesis 4.3.1).
export const SIGNALS = ['swing', 'boom', 'telescope', 'cable1', 'cable2'];

class ProtocolError extends Error {}

function fail(path, what) {
  throw new ProtocolError(`${path}: ${what}`);
}

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function num(obj, key, path) {
  const v = obj[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    fail(`${path}.${key}`, v === undefined ? 'missing' : `expected a finite number, got ${JSON.stringify(v)}`);
  }
  return v;
}

function optNum(obj, key, path) {
  return obj[key] === undefined ? undefined : num(obj, key, path);
}

function vec(obj, key, path, n = 3) {
  const v = obj[key];
  if (!Array.isArray(v) || v.length !== n || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    fail(`${path}.${key}`, v === undefined ? 'missing' : `expected ${n} finite numbers`);
  }
  return v.slice();
}

function optVec(obj, key, path, n = 3) {
  return obj[key] === undefined ? undefined : vec(obj, key, path, n);
}

function obj(parent, key, path) {
  const v = parent[key];
  if (!isObject(v)) fail(`${path}.${key}`, v === undefined ? 'missing' : 'expected an object');
  return v;
}

function bool(o, key, path) {
  const v = o[key];
  if (typeof v !== 'boolean') fail(`${path}.${key}`, v === undefined ? 'missing' : 'expected true or false');
  return v;
}

function isId(v) {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

// an integer index into a list of n, or null
function optIndex(o, key, path, n) {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (!Number.isInteger(v) || v < 0 || (n !== undefined && v >= n)) fail(`${path}.${key}`, `expected null or an index below ${n ?? 'the count'}`);
  return v;
}

function quaternion(o, key, path) {
  const q = vec(o, key, path, 4);
  const n = Math.hypot(...q);
  if (!(n > 0.5 && n < 1.5)) fail(`${path}.${key}`, 'expected a unit quaternion [w, x, y, z]');
  return q.map((x) => x / n);
}

function optString(o, key, path) {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') fail(`${path}.${key}`, 'expected a string');
  return v;
}

// {"center_m": [x,y,z], "size_m": [x,y,z], "yaw_deg": a}; extra keys (bar spacing...) kept.
function box(o, path) {
  if (!isObject(o)) fail(path, 'expected a box object');
  const b = { ...o, center_m: vec(o, 'center_m', path), size_m: vec(o, 'size_m', path),
    yaw_deg: optNum(o, 'yaw_deg', path) ?? 0 };
  if (b.size_m.some((s) => s <= 0)) fail(`${path}.size_m`, 'sizes must be > 0');
  return b;
}

function optBox(parent, key, path) {
  return parent[key] === undefined || parent[key] === null ? null : box(parent[key], `${path}.${key}`);
}

function boxList(parent, key, path) {
  const v = parent[key];
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v.map((b, i) => box(b, `${path}.${key}[${i}]`));
  return [box(v, `${path}.${key}`)];
}

function link(links, name, path) {
  const l = obj(links, name, path);
  const p = `${path}.${name}`;
  const out = { mass_kg: num(l, 'mass_kg', p), com_m: vec(l, 'com_m', p), box_m: vec(l, 'box_m', p) };
  if (out.box_m.some((s) => !(s > 0))) fail(`${p}.box_m`, 'sizes must be > 0');
  return out;
}

function cable(c, path, warnings) {
  if (!isObject(c)) fail(path, 'expected an object');
  return { min_length_m: num(c, 'min_length_m', path), max_length_m: num(c, 'max_length_m', path),
    drum_radius_m: num(c, 'drum_radius_m', path),
    // a loop longer than this is a slack event (the server's rule; absent from older servers)
    slack_margin_m: optNum(c, 'slack_margin_m', path) ?? null,
    reeving: softly(() => reeving(c, path), warnings) };
}

// Where a rope is reeved along the boom: [{part, at: [x, y, z]}, ...], drum first, tip
// sheave last, each `at` in that part's frame (web/js/rope-path.js); null when not sent.
function reeving(c, path) {
  const v = c.reeving;
  if (v === undefined || v === null) return null;
  const p = `${path}.reeving`;
  if (!Array.isArray(v) || v.length < 2) fail(p, 'expected an array of at least two anchors');
  return v.map((a, i) => {
    if (!isObject(a) || typeof a.part !== 'string' || a.part === '') fail(`${p}[${i}].part`, 'expected a part\'s name');
    return { part: a.part, at: vec(a, 'at', `${p}[${i}]`) };
  });
}

// `cables` may come as [c1, c2] or {cable1, cable2} (or main_hoist/aux_hoist); normalised to [c1, c2].
function cables(m, path, warnings) {
  const v = m.cables;
  const p = `${path}.cables`;
  if (Array.isArray(v)) {
    if (v.length !== 2) fail(p, 'expected two cables');
    return v.map((c, i) => cable(c, `${p}[${i}]`, warnings));
  }
  if (!isObject(v)) fail(p, v === undefined ? 'missing' : 'expected two cables');
  const names = [['cable1', 'cable2'], ['main_hoist', 'aux_hoist'], ['1', '2']]
    .find(([a, b]) => isObject(v[a]) && isObject(v[b]));
  if (!names) fail(p, 'expected cable1 and cable2');
  return names.map((n) => cable(v[n], `${p}.${n}`, warnings));
}

// Each channel's relief pressure, ControlSignal order (swing, boom, telescope, main hoist,
// aux hoist); null when the server sends none.
function hydraulics(m, path) {
  if (m.hydraulics === undefined) return { relief_MPa: null };
  const h = obj(m, 'hydraulics', path);
  const p = `${path}.hydraulics`;
  const v = h.relief_MPa;
  if (!Array.isArray(v) || v.length !== 5 || !v.every((x) => Number.isFinite(x) && x > 0)) {
    fail(`${p}.relief_MPa`, 'expected five pressures > 0');
  }
  return { relief_MPa: v.slice() };
}

function machine(h, warnings) {
  const m = obj(h, 'machine', 'hello');
  const p = 'hello.machine';
  const cr = obj(m, 'crane', p);
  const cp = `${p}.crane`;
  const links = obj(cr, 'links', cp);
  const crane = {
    d1_m: num(cr, 'd1_m', cp), a1_m: num(cr, 'a1_m', cp),
    boom_min_deg: num(cr, 'boom_min_deg', cp), boom_max_deg: num(cr, 'boom_max_deg', cp),
    telescope_min_m: num(cr, 'telescope_min_m', cp), telescope_max_m: num(cr, 'telescope_max_m', cp),
    links: {
      swing_cab: link(links, 'swing_cab', `${cp}.links`),
      boom_base: link(links, 'boom_base', `${cp}.links`),
      telescopic: link(links, 'telescopic', `${cp}.links`),
    },
  };
  if (!(crane.telescope_min_m > 0 && crane.telescope_min_m < crane.telescope_max_m)) {
    fail(`${cp}.telescope_min_m`, 'expected 0 < telescope_min_m < telescope_max_m');
  }
  // the boom cylinder, for drawing the parts boom_cylinder and boom_rod (null: not sent)
  crane.boom_cylinder = softly(() => boomCylinder(cr, cp), warnings);
  // the counterweight where the dynamics put it, in frame 1 (null: not sent)
  crane.counterweight = softly(() => counterweight(cr, cp), warnings);
  const cl = obj(m, 'clam', p);
  const clp = `${p}.clam`;
  const clam = {
    link1_length_m: num(cl, 'link1_length_m', clp), link2_length_m: num(cl, 'link2_length_m', clp),
    lip_length_m: num(cl, 'lip_length_m', clp), theta2_open_deg: num(cl, 'theta2_open_deg', clp),
    theta2_closed_deg: num(cl, 'theta2_closed_deg', clp), mass_kg: num(cl, 'mass_kg', clp),
    max_load_kg: optNum(cl, 'max_load_kg', clp), bucket_width_m: optNum(cl, 'bucket_width_m', clp),
    // the closing rope's parts between the head and the block (absent: one, an older server)
    closing_parts: optNum(cl, 'closing_parts', clp),
  };
  for (const k of ['link1_length_m', 'link2_length_m', 'lip_length_m']) {
    if (!(clam[k] > 0)) fail(`${clp}.${k}`, 'must be > 0');
  }
  if (clam.bucket_width_m !== undefined && !(clam.bucket_width_m > 0)) fail(`${clp}.bucket_width_m`, 'must be > 0');
  if (clam.closing_parts !== undefined && !(Number.isInteger(clam.closing_parts) && clam.closing_parts >= 1)) {
    fail(`${clp}.closing_parts`, 'must be a whole number of rope parts, at least 1');
  }
  return { crane, clam, cables: cables(m, p, warnings), carrier: softly(() => carrier(m, p), warnings),
    load_moment: softly(() => loadMoment(m, p), warnings), hydraulics: hydraulics(m, p) };
}

// {retracted_m, extended_m, bore_m}: the cylinder's pivot-to-pivot length at the lowest and
// highest boom angle and its bore, all > 0; null when the server sends none.
function boomCylinder(cr, cp) {
  if (cr.boom_cylinder === undefined || cr.boom_cylinder === null) return null;
  const c = obj(cr, 'boom_cylinder', cp);
  const p = `${cp}.boom_cylinder`;
  const out = { retracted_m: num(c, 'retracted_m', p), extended_m: num(c, 'extended_m', p), bore_m: num(c, 'bore_m', p) };
  for (const k of Object.keys(out)) if (!(out[k] > 0)) fail(`${p}.${k}`, 'must be > 0');
  return out;
}

function counterweight(cr, cp) {
  if (cr.counterweight === undefined || cr.counterweight === null) return null;
  return link(cr, 'counterweight', cp);
}

// An optional part of the hello: a malformed one is null and named in the hello's warnings,
// so the machine is still drawn.
function softly(read, warnings) {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof ProtocolError)) throw e;
    warnings.push(e.message);
    return null;
  }
}

// The outrigger pads' rectangle in the base frame (z up): x from -rear to +front, y from
// -half_span to +half_span, at z = pad_height; null from a server without stability.
function carrier(m, path) {
  if (m.carrier === undefined || m.carrier === null) return null;
  const c = obj(m, 'carrier', path);
  const p = `${path}.carrier`;
  const out = { outrigger_front_m: num(c, 'outrigger_front_m', p), outrigger_rear_m: num(c, 'outrigger_rear_m', p),
    outrigger_half_span_m: num(c, 'outrigger_half_span_m', p), pad_height_m: num(c, 'pad_height_m', p) };
  for (const k of ['outrigger_front_m', 'outrigger_rear_m', 'outrigger_half_span_m']) {
    if (!(out[k] > 0)) fail(`${p}.${k}`, 'must be > 0');
  }
  return out;
}

// The load moment indicator's levels in % of the chart: the gauge's colours come from
// these, never from numbers of the browser's own.
function loadMoment(m, path) {
  if (m.load_moment === undefined || m.load_moment === null) return null;
  const l = obj(m, 'load_moment', path);
  const p = `${path}.load_moment`;
  const out = { warning_pct: num(l, 'warning_pct', p), cutout_pct: num(l, 'cutout_pct', p) };
  if (!(out.warning_pct > 0 && out.warning_pct <= out.cutout_pct)) fail(`${p}.warning_pct`, 'expected 0 < warning_pct <= cutout_pct');
  return out;
}

export const LOAD_SHAPES = ['cylinder', 'sphere', 'box'];

// One load the scene defines: {id, name, shape, mass_kg, radius_m, length_m, size_m}. A
// cylinder's axis is its local x axis; a box's sizes are along local x, y, z.
function sceneLoad(l, path, index) {
  if (!isObject(l)) fail(path, 'expected an object');
  if (!LOAD_SHAPES.includes(l.shape)) fail(`${path}.shape`, `expected one of ${LOAD_SHAPES.join(', ')}`);
  const out = { id: isId(l.id) ? l.id : index, name: typeof l.name === 'string' ? l.name : String(l.id ?? `load ${index + 1}`),
    shape: l.shape, mass_kg: num(l, 'mass_kg', path) };
  // where the load starts (the frames say where it is): optional
  const start = optVec(l, 'position_m', path);
  if (start) out.position_m = start;
  if (l.shape === 'box') {
    out.size_m = vec(l, 'size_m', path);
    if (out.size_m.some((x) => !(x > 0))) fail(`${path}.size_m`, 'sizes must be > 0');
  } else {
    out.radius_m = num(l, 'radius_m', path);
    if (!(out.radius_m > 0)) fail(`${path}.radius_m`, 'must be > 0');
    if (l.shape === 'cylinder') {
      out.length_m = num(l, 'length_m', path);
      if (!(out.length_m > 0)) fail(`${path}.length_m`, 'must be > 0');
    }
  }
  return out;
}

// A malformed load is left out (and named in the hello's warnings), the rest are drawn.
function sceneLoads(s, p, warnings) {
  if (s.loads === undefined || s.loads === null) return [];
  if (!Array.isArray(s.loads)) {
    warnings.push(`${p}.loads: expected an array`);
    return [];
  }
  const out = [];
  s.loads.forEach((l, i) => {
    try {
      out.push({ ...sceneLoad(l, `${p}.loads[${i}]`, i), index: i });
    } catch (e) {
      if (!(e instanceof ProtocolError)) throw e;
      warnings.push(e.message);
    }
  });
  return out;
}

// The task's penalty kinds in the report's order: [{kind, points}] (the server's one list).
function penaltyList(v, path) {
  if (!Array.isArray(v)) fail(path, 'expected a list of {kind, points}');
  return v.map((x, i) => {
    if (!isObject(x) || typeof x.kind !== 'string' || !x.kind) fail(`${path}[${i}].kind`, 'expected a name');
    return { kind: x.kind, points: num(x, 'points', `${path}[${i}]`) };
  });
}

// {title, loads: [ids], optimum_s, limit_s, penalties}: what the score panel names.
function sceneTask(s, p, warnings) {
  const t = s.task;
  if (t === undefined || t === null) return null;
  try {
    if (!isObject(t)) fail(`${p}.task`, 'expected an object');
    const tp = `${p}.task`;
    return {
      title: typeof t.title === 'string' ? t.title : 'Task',
      loads: Array.isArray(t.loads) ? t.loads.filter(isId) : [],
      optimum_s: optNum(t, 'optimum_s', tp),
      limit_s: optNum(t, 'limit_s', tp),
      penalties: penaltyList(t.penalties, `${tp}.penalties`),
      // the rule: the clam meeting the rack or the gate faster than this is a penalised hit
      hit_speed_m_per_s: optNum(t, 'hit_speed_m_per_s', tp) ?? null,
      // the scenario whose lesson a newcomer takes first (null: none)
      lesson: typeof t.lesson === 'string' && t.lesson ? t.lesson : null,
    };
  } catch (e) {
    if (!(e instanceof ProtocolError)) throw e;
    warnings.push(e.message);
    return null;
  }
}

// {title, steps: [{goal, label, controls: [{does, signals: [[signal, direction]], half_speed}], check}]}: the
// first lesson's steps as the scenario gives them (docs/scenario-file.md).
function signalPair(x) {
  return Array.isArray(x) && x.length === 2 && Number.isInteger(x[0]) && x[0] >= 0 && x[0] < 5 && (x[1] === 1 || x[1] === -1);
}
function sceneLesson(s, p, warnings) {
  const l = s.lesson;
  if (l === undefined || l === null) return null;
  const lp = `${p}.lesson`;
  try {
    if (!isObject(l) || !Array.isArray(l.steps) || !l.steps.length) fail(lp, 'expected {title, steps: [...]}');
    return {
      title: typeof l.title === 'string' ? l.title : 'First lesson',
      steps: l.steps.map((st, i) => {
        const sp = `${lp}.steps[${i}]`;
        if (!isObject(st) || typeof st.goal !== 'string') fail(`${sp}.goal`, 'expected a string');
        const controls = Array.isArray(st.controls) ? st.controls : [];
        return {
          goal: st.goal,
          // the step's few words for the list (absent: the list shows the goal)
          ...(typeof st.label === 'string' && st.label ? { label: st.label } : {}),
          controls: controls.map((c, k) => {
            if (!isObject(c) || !Array.isArray(c.signals) || !c.signals.every(signalPair)) {
              fail(`${sp}.controls[${k}].signals`, 'expected [signal 0..4, direction 1 or -1] pairs');
            }
            return { does: typeof c.does === 'string' ? c.does : '', signals: c.signals.map((x) => [x[0], x[1]]),
              half_speed: c.half_speed === true };
          }),
          check: isObject(st.check) ? { ...st.check } : {},
        };
      }),
    };
  } catch (e) {
    if (!(e instanceof ProtocolError)) throw e;
    warnings.push(e.message);
    return null;
  }
}

function scene(h, warnings) {
  const s = obj(h, 'scene', 'hello');
  const p = 'hello.scene';
  const rack = optBox(s, 'trash_rack', p);
  if (rack) {
    const spacing = rack.bar_spacing_m;
    if (spacing !== undefined && !(typeof spacing === 'number' && spacing > 0)) {
      fail(`${p}.trash_rack.bar_spacing_m`, 'expected a number > 0');
    }
  }
  return {
    // an empty scene ({}: --world none) has no water
    water_level_m: s.water_level_m === undefined ? null : num(s, 'water_level_m', p),
    water: isObject(s.water) ? { density_kg_per_m3: optNum(s.water, 'density_kg_per_m3', `${p}.water`) ?? 1000 } : { density_kg_per_m3: 1000 },
    loads: sceneLoads(s, p, warnings),
    task: sceneTask(s, p, warnings),
    lesson: sceneLesson(s, p, warnings),
    reservoir: optBox(s, 'reservoir', p),
    deck: optBox(s, 'deck', p),
    intake_floor: optBox(s, 'intake_floor', p),
    trash_rack: rack,
    gate: optBox(s, 'gate', p),
    intake_walls: boxList(s, 'intake_walls', p),
    truck_bed: optBox(s, 'truck_bed', p),
  };
}

// hello.parts: the names of the moving parts, in the order every display's `parts` gives
// their poses (a malformed list is null and named in the hello's warnings).
function partNames(h, warnings) {
  const v = h.parts;
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && x) || new Set(v).size !== v.length) {
    warnings.push('hello.parts: expected a list of distinct part names');
    return null;
  }
  return v.slice();
}

// hello.limits: what the server allows a connection (docs/websocket-protocol.md "Limits").
function limits(h, warnings) {
  const v = h.limits;
  if (v === undefined || v === null) return null;
  return softly(() => {
    if (!isObject(v)) fail('hello.limits', 'expected an object');
    const out = {};
    for (const k of ['max_message_bytes', 'max_messages_per_s']) {
      const x = optNum(v, k, 'hello.limits');
      if (x !== undefined && !(x > 0)) fail(`hello.limits.${k}`, 'must be > 0');
      out[k] = x ?? null;
    }
    return out;
  }, warnings);
}

// The server's full stick must be the one this client scales its controls to.
function fullStick(h) {
  const v = h.limits?.full_stick_V;
  if (v !== undefined && v !== VOLT_LIMIT) {
    fail('hello.limits.full_stick_V', `this client sends -${VOLT_LIMIT}..+${VOLT_LIMIT} V, the server's full stick is ${JSON.stringify(v)}`);
  }
}

// hello.frame_rates_hz: the frame rates this server grants (?rate=), [] when it names none.
function frameRates(h) {
  const v = h.frame_rates_hz;
  return Array.isArray(v) ? v.filter((x) => typeof x === 'number' && Number.isFinite(x) && x > 0) : [];
}

// Table 4.1's names in the order the display's values come (units in the names: "load_kg"):
// the server's one list, which the page reads values by.
function displayFields(h) {
  const v = h.display_fields;
  if (!Array.isArray(v) || !v.length || !v.every((n) => typeof n === 'string' && /^[a-z][a-z0-9_]*$/.test(n))) {
    fail('hello.display_fields', 'expected a list of field names');
  }
  return v.slice();
}

function hello(h) {
  if (h.protocol !== PROTOCOL_VERSION) {
    fail('hello.protocol', `this client speaks version ${PROTOCOL_VERSION}, the server ${JSON.stringify(h.protocol)}`);
  }
  fullStick(h);
  const warnings = [];
  return {
    type: 'hello',
    protocol: h.protocol,
    session: h.session,
    server: typeof h.server === 'string' ? h.server : '',
    model: typeof h.model === 'string' ? h.model : '',
    frame_period_s: num(h, 'frame_period_s', 'hello'),
    display_fields: displayFields(h),
    frame_rates_hz: frameRates(h),
    limits: limits(h, warnings),
    parts: partNames(h, warnings),
    machine: machine(h, warnings),
    scene: scene(h, warnings),
    observing: h.observing === undefined ? null : observing(h.observing),
    // a debrief replay's recording (replay.js's parseReplayInfo reads it), and the replayed
    // moment a taken-over live session goes on from
    replay: isObject(h.replay) ? h.replay : null,
    taken_over: isObject(h.taken_over) ? h.taken_over : null,
    warnings,
  };
}

// hello.observing: this connection watches someone else's session (/ws?observe=ID).
function observing(o) {
  if (!isObject(o)) fail('hello.observing', 'expected an object');
  if (!Number.isInteger(o.session)) fail('hello.observing.session', 'expected a session number');
  return { session: o.session, trainee: typeof o.trainee === 'string' ? o.trainee : null,
    transport: typeof o.transport === 'string' ? o.transport : '', label: typeof o.label === 'string' ? o.label : '',
    maySend: Array.isArray(o.may_send) ? o.may_send.filter((t) => typeof t === 'string') : [],
    faults: Array.isArray(o.faults) ? o.faults.filter(isObject) : [] };
}

const CONTROL_MODES = ['trainee', 'exclusive', 'shared'];

// Who drives the session's machine: sent to the trainee and to observers on
// every change; `text` is the sentence to show, written by the server; `you` (observers
// only) says whether this connection holds the controls.
function control(m) {
  if (!CONTROL_MODES.includes(m.mode)) fail('control.mode', `expected one of ${CONTROL_MODES.join(', ')}`);
  return { type: 'control', mode: m.mode, holder: typeof m.holder === 'string' ? m.holder : null,
    waiting: Number.isInteger(m.waiting) ? m.waiting : 0, text: typeof m.text === 'string' ? m.text : '',
    you: m.you === true };
}

// A short text from the instructor for the trainee's screen.
function instructor_message(m) {
  if (typeof m.text !== 'string') fail('instructor_message.text', 'expected a string');
  return { type: 'instructor_message', from: typeof m.from === 'string' ? m.from : 'instructor', text: m.text };
}

// The answer to an observer's take_control / share_control / release_control.
function control_answer(m) {
  if (typeof m.result !== 'string') fail('control_answer.result', 'expected a string');
  return { type: 'control_answer', request: typeof m.request === 'string' ? m.request : '',
    result: m.result, message: typeof m.message === 'string' ? m.message : '' };
}

// An observer's: the faults active on the watched session (on every change).
function faults(m) {
  if (!Array.isArray(m.active)) fail('faults.active', 'expected an array');
  return { type: 'faults', active: m.active.filter(isObject) };
}

// An observer's: the five volts that drove frame `seq` (sent when they change).
function inputs(m) {
  if (!Number.isInteger(m.seq) || m.seq < 0) fail('inputs.seq', 'expected an integer >= 0');
  const v = m.volts;
  if (!Array.isArray(v) || v.length !== SIGNALS.length || !v.every((x) => typeof x === 'number' && Number.isFinite(x)))
    fail('inputs.volts', `expected ${SIGNALS.length} finite numbers`);
  return { type: 'inputs', seq: m.seq, volts: v.slice() };
}

// An observer's: what happened in frame `seq` (hits, grips, deliveries, lesson steps...).
function events(m) {
  if (!Number.isInteger(m.seq) || m.seq < 0) fail('events.seq', 'expected an integer >= 0');
  if (!Array.isArray(m.events)) fail('events.events', 'expected an array');
  const list = m.events.map((e, i) => {
    if (!isObject(e) || typeof e.kind !== 'string') fail(`events.events[${i}].kind`, 'expected a string');
    return { ...e };
  });
  return { type: 'events', seq: m.seq, t: optNum(m, 't', 'events') ?? null, events: list };
}

// A load's pose in a display frame; `id` matches hello.scene.loads[].id.
function frameLoad(l, path) {
  if (!isObject(l)) fail(path, 'expected an object');
  if (!isId(l.id)) fail(`${path}.id`, 'expected a string or a number');
  return { id: l.id, position_m: vec(l, 'position_m', path), orientation: quaternion(l, 'orientation', path),
    held: bool(l, 'held', path), in_contact: bool(l, 'in_contact', path), submerged: optNum(l, 'submerged', path) ?? 0 };
}

function contact(c, path, nLoads) {
  if (!isObject(c)) fail(path, 'expected an object');
  const pair = optString(c, 'pair', path);
  if (pair === undefined) fail(`${path}.pair`, 'missing');
  const solid = c.solid === null || c.solid === undefined ? null : optString(c, 'solid', path);
  return { position_m: vec(c, 'position_m', path), force_N: num(c, 'force_N', path), pair, solid,
    load: optIndex(c, 'load', path, nLoads) };
}

function list(d, key, path, read) {
  const v = d[key];
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail(`${path}.${key}`, 'expected an array');
  return v.map((x, i) => read(x, `${path}.${key}[${i}]`));
}

function counters(d, key, path) {
  const v = d[key];
  if (v === undefined) return undefined;
  if (!isObject(v)) fail(`${path}.${key}`, 'expected an object');
  const out = {};
  for (const [k, x] of Object.entries(v)) {
    if (!(typeof x === 'number' && Number.isFinite(x) && x >= 0)) fail(`${path}.${key}.${k}`, 'expected a count >= 0');
    out[k] = x;
  }
  return out;
}

export const SCORE_NUMBERS = ['elapsed_s', 'optimum_s', 'limit_s', 'delivered', 'required', 'time_points',
  'penalty_points', 'total'];
// practice: a practice attempt (no time limit; absent from older servers: false)
const SCORE_FLAGS = ['running', 'finished', 'completed', 'tipped_over', 'practice'];

function score(d, path) {
  const v = d.score;
  if (v === undefined || v === null) return undefined;
  const p = `${path}.score`;
  if (!isObject(v)) fail(p, 'expected an object');
  if (!v.enabled) return { enabled: false };
  const out = { enabled: true };
  for (const k of SCORE_FLAGS) out[k] = Boolean(v[k]);
  for (const k of SCORE_NUMBERS) out[k] = num(v, k, p);
  // the rest are the penalty kinds' counts (kind + 's'), whichever kinds the server scores
  const known = new Set(['enabled', 'interrupted', ...SCORE_FLAGS, ...SCORE_NUMBERS]);
  for (const [k, x] of Object.entries(v)) {
    if (known.has(k)) continue;
    if (!Number.isInteger(x) || x < 0) fail(`${p}.${k}`, 'expected a count (an integer >= 0)');
    out[k] = x;
  }
  return out;
}

export const LMI_STATES = ['ok', 'warning', 'cutout'];
export const TILT_EDGES = ['none', 'front', 'rear', 'left', 'right'];

function optEnum(o, key, path, values) {
  const v = optString(o, key, path);
  if (v !== undefined && !values.includes(v)) fail(`${path}.${key}`, `expected one of ${values.join(', ')}`);
  return v;
}

// The line the machine turns about (a side of its pads), null while it stands on all four;
// the direction comes back as a unit vector.
function tiltAxis(d, path) {
  const v = d.tilt_axis;
  if (v === undefined || v === null) return null;
  const p = `${path}.tilt_axis`;
  if (!isObject(v)) fail(p, 'expected null or {point_m, direction}');
  const dir = vec(v, 'direction', p);
  const n = Math.hypot(...dir);
  if (!(n > 1e-6)) fail(`${p}.direction`, 'expected a non-zero vector');
  return { point_m: vec(v, 'point_m', p), direction: dir.map((x) => x / n) };
}

function optBool(o, key, path) {
  return o[key] === undefined ? undefined : bool(o, key, path);
}

// Stability (docs/model.md, Stability): the load moment indicator's reading and the machine's tilt;
// a malformed or missing one is dropped and named, like the other extended fields.
function stability(d, p, need) {
  return {
    load_moment_pct: need('load_moment_pct', () => optNum(d, 'load_moment_pct', p)),
    hook_load_kg: need('hook_load_kg', () => optNum(d, 'hook_load_kg', p)),
    rated_kg: need('rated_kg', () => optNum(d, 'rated_kg', p)),
    radius_m: need('radius_m', () => optNum(d, 'radius_m', p)),
    lmi: need('lmi', () => optEnum(d, 'lmi', p, LMI_STATES)),
    tilt_deg: need('tilt_deg', () => optNum(d, 'tilt_deg', p)) ?? 0,
    tilt_edge: need('tilt_edge', () => optEnum(d, 'tilt_edge', p, TILT_EDGES)) ?? 'none',
    tilt_axis: need('tilt_axis', () => tiltAxis(d, p)) ?? null,
    tipped_over: need('tipped_over', () => optBool(d, 'tipped_over', p)) ?? false,
  };
}

// The first lesson's progress (present only in a world with a lesson).
function lessonProgress(d, path) {
  const v = d.lesson;
  if (v === undefined || v === null) return undefined;
  const p = `${path}.lesson`;
  if (!isObject(v)) fail(p, 'expected an object');
  const out = { finished: Boolean(v.finished) };
  for (const k of ['step', 'steps', 'progress', 'elapsed_s', 'setbacks']) out[k] = num(v, k, p);
  return out;
}

// A pose [x, y, z, qw, qx, qy, qz] in the base frame: metres, then a unit quaternion
// (normalised here).
function pose7(v, path) {
  if (!Array.isArray(v) || v.length !== 7 || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    fail(path, 'expected [x, y, z, qw, qx, qy, qz], 7 finite numbers');
  }
  const n = Math.hypot(v[3], v[4], v[5], v[6]);
  if (!(n > 0.5 && n < 1.5)) fail(path, 'expected a unit quaternion in [3..6]');
  return [v[0], v[1], v[2], v[3] / n, v[4] / n, v[5] / n, v[6] / n];
}

// display.parts: one pose per name of hello.parts, in its order.
function parts(d, path) {
  const v = d.parts;
  if (v === undefined) return undefined;
  if (!Array.isArray(v)) fail(`${path}.parts`, 'expected an array of poses');
  return v.map((x, i) => pose7(x, `${path}.parts[${i}]`));
}

// display.flags: the server's own states (with its hysteresis): a slack rope each, the
// overload, the anti-two-block stop.
function flags(d, path) {
  const v = d.flags;
  if (v === undefined || v === null) return undefined;
  const p = `${path}.flags`;
  if (!isObject(v)) fail(p, 'expected {slack, slack_m, overload, two_block}');
  const slack = v.slack;
  if (!Array.isArray(slack) || slack.length !== 2 || !slack.every((x) => typeof x === 'boolean')) {
    fail(`${p}.slack`, 'expected [bool, bool], one per rope');
  }
  // each rope's loop beyond its span, m (the server's one measure of slack)
  const slackM = optVec(v, 'slack_m', p, 2);
  if (slackM && !slackM.every((x) => x >= 0)) fail(`${p}.slack_m`, 'expected two lengths >= 0');
  return { slack: slack.slice(), slack_m: slackM ?? null, overload: bool(v, 'overload', p), two_block: bool(v, 'two_block', p) };
}

function optCount(o, key, path) {
  const v = o[key];
  if (v === undefined) return undefined;
  if (!Number.isInteger(v) || v < 0) fail(`${path}.${key}`, 'expected an integer >= 0');
  return v;
}

// The display's extended members that are read alike: [name, reader, length of a vector].
const EXTENDED_READS = [
  ['joint_velocity', optVec], ['tension_N', optVec, 2], ['working', optString], ['geo', optString],
  ['load', optString], ['theta1_deg', optNum], ['theta2_deg', optNum], ['jaw_gap_m', optNum],
  ['squeeze_N', optNum], ['stop_force_N', optNum], ['tip_m', optVec], ['point_a_m', optVec],
  ['point_b_m', optVec], ['point_c_m', optVec], ['cable_rate_m_s', optVec, 2], ['clam_vel_m_s', optVec, 2],
  ['clam_swing_deg', optVec, 2], ['clam_orientation', quaternion], ['clam_contact_force_N', optNum],
  ['clam_submerged', optNum],
];

// Table 4.1's values, seq and t are required; a malformed or missing extended field is dropped
// and named in `warnings`, so one bad extended field does not cost the frame.
// names: the hello's display_fields (null before a hello: the values are then only checked
// as numbers, and `values` is null).
function display(d, { displayFields: names = null } = {}) {
  if (!Number.isInteger(d.seq) || d.seq < 0) fail('display.seq', 'expected an integer >= 0');
  const t = num(d, 't', 'display');
  const values = d.display;
  if (!Array.isArray(values) || !values.length || (names && values.length !== names.length)) {
    fail('display.display', names ? `expected ${names.length} values (hello.display_fields)` : 'expected a list of values');
  }
  values.forEach((v, i) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) fail(`display.display[${i}]${names ? ` (${names[i]})` : ''}`, 'not a finite number');
  });
  const p = 'display';
  const warnings = [];
  const soft = (read) => {
    try {
      return read();
    } catch (e) {
      if (!(e instanceof ProtocolError)) throw e;
      warnings.push(e.message);
      return undefined;
    }
  };
  // a member every v2 server sends: its absence is named too (the page does without it)
  const need = (key, read) => soft(() => {
    if (d[key] === undefined) fail(`${p}.${key}`, 'missing');
    return read();
  });
  const parsedLoads = need('loads', () => list(d, 'loads', p, frameLoad));
  const loads = parsedLoads ?? [];
  const nLoads = parsedLoads ? loads.length : undefined;  // indices are checked against good loads only
  return {
    type: 'display', seq: d.seq, t, display: values.slice(),
    // Table 4.1 by name: values.load_kg (null without the hello's names)
    values: names ? Object.fromEntries(names.map((n, i) => [n, values[i]])) : null,
    pressure_MPa: need('pressure_MPa', () => (Array.isArray(d.pressure_MPa) ? d.pressure_MPa.slice() : undefined)),
    ...Object.fromEntries(EXTENDED_READS.map(([key, read, n]) => [key, need(key, () => read(d, key, p, n))])),
    turbidity: need('turbidity', () => optNum(d, 'turbidity', p)) ?? 0,
    loads,
    held_load: need('held_load', () => optIndex(d, 'held_load', p, nLoads)) ?? null,
    contacts: need('contacts', () => list(d, 'contacts', p, (c, cp) => contact(c, cp, nLoads))) ?? [],
    ...stability(d, p, need),
    parts: need('parts', () => parts(d, p)),
    flags: need('flags', () => flags(d, p)),
    // how many `control` messages this connection had sent when the server took this
    // frame's inputs (the latency probe's match)
    control_seq: need('control_seq', () => optCount(d, 'control_seq', p)),
    events: need('events', () => counters(d, 'events', p)),
    score: need('score', () => score(d, p)),
    lesson: soft(() => lessonProgress(d, p)),
    warnings,
  };
}

function pong(m) {
  return { type: 'pong', id: m.id, t: num(m, 't', 'pong'), sim_t: optNum(m, 'sim_t', 'pong') };
}

function error(m) {
  return { type: 'error', code: typeof m.code === 'string' ? m.code : 'unknown',
    message: typeof m.message === 'string' ? m.message : '' };
}

// The task's report, once, on the frame where the task ended. `report` is the session's
// JSON as it wrote it (an object), or its text if it did not parse on the server.
function report(m) {
  if (!isObject(m.report) && typeof m.report !== 'string') fail('report.report', m.report === undefined ? 'missing' : 'expected an object');
  return { type: 'report', v: m.v, seq: Number.isInteger(m.seq) ? m.seq : null, t: optNum(m, 't', 'report'), report: m.report };
}

function restarting(m) {
  return { type: 'restarting', id: m.id ?? null };
}

// The reply to `trainee`: the name this session now holds, as the server trimmed it.
function trainee(m) {
  if (typeof m.name !== 'string') fail('trainee.name', m.name === undefined ? 'missing' : 'expected a string');
  return { type: 'trainee', name: m.name };
}

// The server is draining (SIGTERM): this session ends in seconds_left whole seconds unless
// it ends first; `message` is the sentence to show, written by the server.
function drain(m) {
  if (!Number.isInteger(m.seconds_left) || m.seconds_left < 0)
    fail('drain.seconds_left', m.seconds_left === undefined ? 'missing' : 'expected a whole number >= 0');
  return { type: 'drain', secondsLeft: m.seconds_left,
    message: typeof m.message === 'string' ? m.message : '' };
}

// the debrief replay's messages (docs/websocket-protocol.md "Replays"), checked by replay.js
function replayMessage(m) {
  const r = parseReplayMessage(m);
  if (!r) fail(m.type, 'malformed');
  return r;
}

const validators = { hello, display, pong, error, report, restarting, trainee, drain, inputs, events,
  control, instructor_message, control_answer, faults, replay_progress: replayMessage,
  replay_timeline: replayMessage, replay_state: replayMessage, take_over: replayMessage,
  replay_ticket: replayMessage };

// Returns {ok: true, msg} or {ok: false, error: "what was wrong"}; never throws. context:
// what an earlier message said that this one is read by ({displayFields} from the hello).
export function parseServerMessage(text, context = {}) {
  if (typeof text !== 'string') return { ok: false, error: `binary message (protocol v${PROTOCOL_VERSION} is JSON text)` };
  let m;
  try {
    m = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `not JSON: ${e.message}` };
  }
  if (!isObject(m)) return { ok: false, error: 'not a JSON object' };
  if (typeof m.type !== 'string') return { ok: false, error: 'type: missing' };
  const validate = validators[m.type];
  if (!validate) return { ok: false, error: `unknown message type ${JSON.stringify(m.type)}` };
  try {
    return { ok: true, msg: validate(m, context) };
  } catch (e) {
    if (e instanceof ProtocolError) return { ok: false, error: e.message };
    throw e;
  }
}

// Five volts, each clamped to -5..+5 V; anything not finite goes out as 0.
export function clampVolts(volts) {
  return SIGNALS.map((_, i) => {
    const v = Number(volts?.[i]);
    if (!Number.isFinite(v)) return 0;
    return Math.round(Math.max(-VOLT_LIMIT, Math.min(VOLT_LIMIT, v)) * 1000) / 1000;
  });
}

export function controlMessage(volts) {
  return JSON.stringify({ type: 'control', volts: clampVolts(volts) });
}

export function pingMessage(id, tMs) {
  return JSON.stringify({ type: 'ping', id, t: tMs });
}

// Start the scenario's task (and its world) again; the server answers `restarting`.
// practice: a practice attempt (scored, no time limit; the report says practice)
export function restartMessage(id, practice = false) {
  const m = id === undefined ? { type: 'restart' } : { type: 'restart', id };
  if (practice) m.practice = true;
  return JSON.stringify(m);
}

// An instructor's (observer connection's) requests, docs/websocket-protocol.md "Instructors".
export function takeControlMessage(shared, wait) {
  return JSON.stringify({ type: shared ? 'share_control' : 'take_control', wait: Boolean(wait) });
}
export function releaseControlMessage() {
  return JSON.stringify({ type: 'release_control' });
}
export function instructorTextMessage(text) {
  return JSON.stringify({ type: 'message', text: String(text) });
}
export function faultMessage(name, params) {
  return JSON.stringify({ type: 'fault', name, params: params ?? {} });
}
export function clearFaultMessage(name, params) {
  return JSON.stringify({ type: 'clear_fault', name, params: params ?? {} });
}

export const ZERO_VOLTS = Object.freeze([0, 0, 0, 0, 0]);

// GET /api/client-config (docs/websocket-protocol.md, "Connecting"): the rules this server
// sets for the page before it connects. Throws naming the field.
export function parseClientConfig(body) {
  if (!isObject(body)) fail('client-config', 'expected an object');
  for (const key of ['class_code_required', 'instructor_login_required']) {
    if (typeof body[key] !== 'boolean') {
      fail(`client-config.${key}`, body[key] === undefined ? 'missing' : `expected a boolean, got ${JSON.stringify(body[key])}`);
    }
  }
  // the scenarios and models the server has (offered when it refuses a name); [] when an
  // older server does not say
  const names = (key) => {
    const v = body[key] ?? [];
    if (!Array.isArray(v) || !v.every((n) => typeof n === 'string')) fail(`client-config.${key}`, 'expected an array of names');
    return v;
  };
  // the keyboard layout, as the server read it (keyboard.js parses it); null: none
  return { classCodeRequired: body.class_code_required, instructorLoginRequired: body.instructor_login_required,
    keyboard: body.keyboard ?? null, scenarios: names('scenarios'), models: names('models') };
}

// ?rate=HZ on the page's own URL (20, 30 or 60 frames per second, as the server offers in
// hello.frame_rates_hz): passed on to its live WebSocket; null when the page has none.
export function frameRateParam(search) {
  const v = new URLSearchParams(search).get('rate');
  return v ? v : null;
}

export function withFrameRate(wsUrl, rate) {
  if (!rate) return wsUrl;
  const u = new URL(wsUrl);
  u.searchParams.set('rate', String(rate));
  return u.toString();
}

// The server's reason when it refused the rate asked for (close 1008 "rate: ..."), else null.
export function frameRateRefusal(code, rawReason) {
  return code === 1008 && typeof rawReason === 'string' && rawReason.startsWith('rate') ? rawReason : null;
}
