// Every kind of event the server names (the report's timeline, the observers' events, the
// replay's markers: docs/websocket-protocol.md), as the browser shows it: `word` for a list,
// a legend or a score row, `phrase` for the observer's running log, a group (penalties stand
// tall on the replay's bar), a colour and a one-character icon. The one place the browser
// keeps an event's words: the score panel, the report, the replay, the instructor's table and
// the observer's log all read this table. The server names each event once: a penalty kind's
// count, in the score and in display.events, is its name with "s" (countKey).
//
// Which kinds are penalties, in the report's order, and what each costs are the server's
// (hello.scene.task.penalties); `group: 'penalty'` only styles them.

export const EVENT_KINDS = Object.freeze({
  rack_gate_hit: { short: 'Rack / gate', word: 'Hit the trash rack or gate', phrase: 'hit the rack or the gate', group: 'penalty', colour: '#ef5b4c', icon: '✖' },
  structure_hit: { short: 'Structure', word: 'Hit the structure (deck, walls, truck)', phrase: 'hit the structure', group: 'penalty', colour: '#ef5b4c', icon: '✖' },
  slack_cable: { short: 'Slack', word: 'Slack cable', group: 'penalty', colour: '#e8b23a', icon: '~' },
  overload: { short: 'Overload', word: 'Overload', group: 'penalty', colour: '#d65fd0', icon: '⚠' },
  dropped_load: { short: 'Dropped', word: 'Dropped a load', group: 'penalty', colour: '#ef5b4c', icon: '↓' },
  // the load moment indicator's levels, as the trainee's gauge colours them (amber, red)
  lmi_warning: { short: 'LMI warn', word: 'Load moment warning', group: 'penalty', colour: '#e8b23a', icon: '◔' },
  lmi_cutout: { short: 'LMI cut', word: 'Load moment cut-out', group: 'penalty', colour: '#ef5b4c', icon: '◕' },
  load_impact: { word: 'Load struck something', phrase: 'a load struck something', group: 'warning', colour: '#f0883e', icon: '!' },
  // the machine's safety devices and its loss: not penalties of their own, but marked apart
  two_block: { word: 'Anti-two-block stop', phrase: 'anti-two-block: hoisting stopped', group: 'machine', colour: '#f0883e', icon: '⊼' },
  tip_over: { word: 'Tipped over', phrase: 'the crane tipped over', group: 'machine', colour: '#ff2d55', icon: '⟂' },
  grip: { word: 'Gripped a load', phrase: 'gripped', group: 'load', colour: '#57c26f', icon: '◆' },
  release: { word: 'Let go of a load', phrase: 'let go of', group: 'load', colour: '#8fd19e', icon: '◇' },
  delivered: { word: 'Delivered a load', group: 'load', colour: '#3fd1b0', icon: '✔' },
  restart: { word: 'Task restarted', phrase: 'restarted the task', group: 'task', colour: '#b8c4cf', icon: '⟲' },
  task_finished: { word: 'Task ended', phrase: 'task finished', group: 'task', colour: '#ffffff', icon: '■' },
  lesson_step: { word: 'Lesson: next step', phrase: 'lesson: on to step', group: 'task', colour: '#b8c4cf', icon: '»' },
  faults: { word: 'Fault injected or cleared', phrase: 'faults changed:', group: 'instructor', colour: '#c77dff', icon: 'ϟ' },
  control: { word: 'Take-over (controls)', phrase: 'controls:', group: 'instructor', colour: '#4aa3df', icon: '⇄' },
  instructor_message: { word: 'Instructor message', group: 'instructor', colour: '#7cc4f0', icon: '✉' },
});

const UNKNOWN_KIND = Object.freeze({ word: 'Event', group: 'other', colour: '#8a9aa8', icon: '•' });

// A kind's entry; one this client does not know is drawn plainly under its own name.
export function eventKind(kind) {
  return EVENT_KINDS[kind] ?? { ...UNKNOWN_KIND, word: String(kind).replace(/_/g, ' ') };
}

// The observer's words: the phrase, else the word as running text.
export function eventPhrase(kind) {
  const k = eventKind(kind);
  return k.phrase ?? k.word.charAt(0).toLowerCase() + k.word.slice(1);
}

// A penalty kind's count in the score and in display.events: "rack_gate_hit" -> "rack_gate_hits".
export const countKey = (kind) => `${kind}s`;

// The penalty kinds this table knows, in its order, for a page without the hello (the
// instructor's table of live scores): [{kind, short, word, countKey}].
export const PENALTY_COLUMNS = Object.freeze(Object.entries(EVENT_KINDS).filter(([, k]) => k.group === 'penalty')
  .map(([kind, k]) => ({ kind, short: k.short, word: k.word, countKey: countKey(kind) })));

// The penalty kinds in the report's order, as the server lists them in hello.scene.task
// (null without a task): [{kind, word, countKey, points}].
export function penaltyKinds(task) {
  const list = Array.isArray(task?.penalties) ? task.penalties : null;
  if (!list) return null;
  return list.map((p) => ({ kind: p.kind, word: eventKind(p.kind).word, countKey: countKey(p.kind), points: p.points }));
}
