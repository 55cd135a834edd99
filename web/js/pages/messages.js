// The one dispatch table of server messages, shared by every page. The page's own part of
// a message (a replay's timeline, the desk's answers, a trainee's name) is its c.page.on
// handler, run where the shared part leaves off; a page without one ignores the message.

import { parseServerMessage } from '../protocol.js';
import { traineeErrorKind } from '../trainee.js';
import { takenOverNotice } from '../replay.js';
import { worldForHello, periodForHello, posesOfFrame, markDirty } from './drawing.js';
import { taskForHello, markersAndWarnings, scoreAndLesson, showReport, taskRestarted } from './task-view.js';
import { feel } from './operator.js';
import { showLink } from './link.js';

// messages only a page of one kind gets (the server sends them to it alone)
const PAGE_ONLY = ['inputs', 'events', 'faults', 'replay_progress', 'replay_timeline', 'replay_state', 'take_over',
  'replay_ticket'];

// The shared part of the hello: a fresh session and a fresh attempt at the task.
function hello(c, msg) {
  worldForHello(c, msg);
  taskForHello(c, msg);
  if (msg.warnings.length) c.hud.note(`hello: ignored ${msg.warnings.join('; ')}`);
  c.stats.session = `${msg.session} (${msg.model || 'model'}, ${msg.server || 'server'})`;
  c.link.sessionId = msg.session;
  c.hud.note(`hello: protocol ${msg.protocol}, frame ${+(msg.frame_period_s * 1000).toFixed(1)} ms`);
  periodForHello(c, msg);
  // a fresh session: its frames start over, and so does the count of controls
  c.controls.controlCount = 0;
  c.controls.helloSeen = true;
  c.controlSender.reset(msg.limits?.max_messages_per_s ?? null);
  c.probe.reset();
  c.notices.reset();
  if (msg.taken_over) c.notices.message(takenOverNotice(msg.taken_over, msg.frame_period_s));
  c.page.hello(msg);
}

// Counted on arrival: frames, drops (a replay skips frames when it seeks or plays fast:
// not a loss), arrivals for the rate.
function countFrame(c, f) {
  const stats = c.stats;
  if (!c.page.skipsFrames && stats.lastSeq >= 0 && f.seq > stats.lastSeq + 1) stats.dropped += f.seq - stats.lastSeq - 1;
  stats.lastSeq = f.seq;
  stats.frames += 1;
  stats.arrivals.push(performance.now());
  stats.framesSeen += 1;
  c.draw.frameSinceDraw = true;
}

function display(c, f) {
  if (!c.draw.world) return;
  countFrame(c, f);
  if (f.warnings.length) c.hud.note(`frame ${f.seq}: ignored ${f.warnings.join('; ')}`);
  const now = performance.now();
  c.probe.frame(f.control_seq, now);
  posesOfFrame(c, f, now, c.page.playbackSpeed());
  markersAndWarnings(c, f, now);
  const effect = c.rumbleTracker.update(f.events, now);
  if (effect && c.page.feels) feel(c, effect);
  c.page.on.display?.(f);
  scoreAndLesson(c, f);
  c.hud.frame(f);
  // the machine sounds as it is driven: by this page's controls, or the watched trainee's
  c.sound.frame(f, c.page.soundVolts(c.controls.drivingVolts));
  c.lastFrame = f;
  markDirty(c);
}

function error(c, m) {
  c.hud.note(`server: ${m.code}${m.message ? `: ${m.message}` : ''}`);
  c.page.on.error?.(m);
  const kind = traineeErrorKind(m);
  if (kind) {
    const name = c.trainee.refused(m);
    c.traineeUi.show(c.trainee.view());
    if (kind === 'refused') c.traineeUi.refused(name, m.message || m.code);
  }
}

export function messageHandlers(c) {
  const handlers = {
    hello: (msg) => hello(c, msg),
    display: (f) => display(c, f),
    report: (m) => showReport(c, m),
    restarting: () => taskRestarted(c),
    pong(m) { c.stats.latencyMs = performance.now() - m.t; },
    trainee(m) {
      c.trainee.acknowledged(m.name);
      c.traineeUi.show(c.trainee.view());
      c.hud.note(`trainee: the server records "${m.name}"`);
    },
    control(m) {
      c.notices.control(m);
      c.hud.note(`control: ${c.page.controlWords(m)}`);
      c.page.on.control?.(m);
    },
    control_answer(m) {
      c.page.on.control_answer?.(m);
      c.hud.note(`${m.request}: ${m.result}: ${m.message}`);
    },
    instructor_message(m) {
      // the trainee sees it large; an observer's page lists it with the events
      if (c.page.on.instructor_message) c.page.on.instructor_message(m);
      else c.notices.message(m);
      c.hud.note(`message from ${m.from}: ${m.text}`);
    },
    drain(m) {
      // the server counts down once a second; the banner shows its own words
      c.link.drainNotice = m;
      showLink(c);
    },
    error: (m) => error(c, m),
  };
  for (const type of PAGE_ONLY) handlers[type] = (m) => c.page.on[type]?.(m);
  // what the hello said that later messages are read by: its display field names
  const context = { displayFields: null };
  return (text) => {
    const r = parseServerMessage(text, context);
    if (!r.ok) {
      c.hud.note(`ignored a message: ${r.error}`);
      return;
    }
    if (r.msg.type === 'hello') context.displayFields = r.msg.display_fields;
    handlers[r.msg.type](r.msg);
  };
}
