// One entry of a task report's timeline in words (docs/training-task.md): a penalty (what,
// where, and whose inputs were driving), or an instructor's action (a hand-over of the
// controls, a message, a fault). The one place both the trainee's end-of-task overlay
// (task.js) and the report page (report.js) take their words from.

// The penalty kinds in the report's order, as a person says them.
export const PENALTY_NAMES = {
  rack_gate_hit: 'Hit the trash rack or gate',
  structure_hit: 'Hit the structure (deck, walls, truck)',
  slack_cable: 'Slack cable',
  overload: 'Overload',
  dropped_load: 'Dropped a load',
};

const CONTROL_WORDS = {
  exclusive: 'took the controls',
  shared: 'took dual control',
  trainee: 'handed the controls back',
};

const INSTRUCTOR_ACTIONS = {
  control: (e) => `Instructor ${e.by} ${CONTROL_WORDS[e.detail] ?? e.detail}`,
  message: (e) => `Message from ${e.by}: \u201c${e.detail}\u201d`,
  fault: (e) => `Fault injected by ${e.by}: ${e.detail}`,
  fault_cleared: (e) => `Fault cleared by ${e.by}: ${e.detail}`,
};

// Whose inputs moved the machine when a penalty happened (absent in older reports).
function driverWords(e) {
  if (e.driver === 'instructor') return ` \u2013 instructor ${e.instructor ?? ''} driving`.trimEnd();
  if (e.driver === 'both') return ` \u2013 dual control with ${e.instructor ?? 'the instructor'}`;
  return '';
}

export function isInstructorAction(e) {
  return Boolean(e && INSTRUCTOR_ACTIONS[e.kind]);
}

// null for an entry of a kind this client does not know.
export function timelineWords(e) {
  if (!e || typeof e !== 'object') return null;
  if (INSTRUCTOR_ACTIONS[e.kind]) return INSTRUCTOR_ACTIONS[e.kind](e);
  const name = PENALTY_NAMES[e.kind];
  if (!name) return null;
  const where = e.solid ? `: ${e.solid}` : e.load ? `: ${e.load}` : '';
  return `${name}${where}${driverWords(e)}`;
}
