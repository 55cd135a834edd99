// One entry of a task report's timeline in words (docs/training-task.md): a penalty (what,
// where, and whose inputs were driving), an instructor's action (a hand-over of the
// controls, a message, a fault), or the machine's note (a tip-over). The one place both the
// trainee's end-of-task overlay (task.js) and the report page (report.js) take their words from;
// a penalty's own words are event-kinds.js's.

import { EVENT_KINDS } from './event-kinds.js';

// which of hello.machine.load_moment's levels a load moment penalty reached
const LMI_LEVEL = { lmi_warning: 'warning_pct', lmi_cutout: 'cutout_pct' };

const CONTROL_WORDS = {
  exclusive: 'took the controls',
  shared: 'took dual control',
  trainee: 'handed the controls back',
};

// "Instructor ann", or "The instructor" without a name or for the first account's own name
// ("instructor"), which would read "Instructor instructor"
export function instructorWords(name) {
  return !name || String(name).toLowerCase() === 'instructor' ? 'The instructor' : `Instructor ${name}`;
}

const INSTRUCTOR_ACTIONS = {
  control: (e) => `${instructorWords(e.by)} ${CONTROL_WORDS[e.detail] ?? e.detail}`,
  message: (e) => `Message from ${e.by}: \u201c${e.detail}\u201d`,
  fault: (e) => `Fault injected by ${e.by}: ${e.detail}`,
  fault_cleared: (e) => (e.by ? `Fault cleared by ${e.by}: ${e.detail}` : `Fault over (its time was up): ${e.detail}`),
};

// Whose inputs moved the machine when a penalty happened (absent in older reports).
function driverWords(e) {
  if (e.driver === 'instructor') {
    const who = instructorWords(e.instructor);
    return ` \u2013 ${who === 'The instructor' ? 'the instructor' : who.replace(/^Instructor/, 'instructor')} driving`;
  }
  if (e.driver === 'both') return ` \u2013 dual control with ${e.instructor ?? 'the instructor'}`;
  return '';
}

export function isInstructorAction(e) {
  return Boolean(e && INSTRUCTOR_ACTIONS[e.kind]);
}

// A note of the machine's (no points of its own): the tip-over that ended the task, with
// the server's detail ("over the left outriggers").
const MACHINE_NOTES = {
  tip_over: (e) => (e.detail ? `Tipped over (${e.detail})` : 'Tipped over'),
};

// An entry that is not a penalty: an instructor's action or a machine's note.
export function isNote(e) {
  return Boolean(e && (INSTRUCTOR_ACTIONS[e.kind] || MACHINE_NOTES[e.kind]));
}

// "Load moment warning (90 %)": the level is the server's (hello.machine.load_moment); a page
// without it (the report page) names none.
function penaltyName(kind, levels) {
  const pct = levels?.[LMI_LEVEL[kind]];
  const word = EVENT_KINDS[kind].word;
  return Number.isFinite(pct) ? `${word} (${pct} %)` : word;
}

// null for an entry of a kind this client does not know; levels: hello.machine.load_moment
// where the page has it.
export function timelineWords(e, levels = null) {
  if (!e || typeof e !== 'object') return null;
  if (INSTRUCTOR_ACTIONS[e.kind]) return INSTRUCTOR_ACTIONS[e.kind](e);
  if (MACHINE_NOTES[e.kind]) return MACHINE_NOTES[e.kind](e);
  if (EVENT_KINDS[e.kind]?.group !== 'penalty') return null;
  const name = penaltyName(e.kind, levels);
  const where = e.solid ? `: ${e.solid}` : e.load ? `: ${e.load}` : '';
  return `${name}${where}${driverWords(e)}`;
}
