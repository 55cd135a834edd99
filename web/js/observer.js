// Observer mode (docs/instructor.md "Watching a trainee"): an instructor's page watching a
// trainee's session through /ws?observe=ID. Pure: which session the page watches, the
// banner's words, the rows of the trainee's inputs, an event in words. No DOM.

import { SIGNALS } from './protocol.js';
import { instructorWords } from './timeline-words.js';
import { eventPhrase } from './event-kinds.js';

// ?observe=ID -> the session number, or null when the page is a trainee's own; a malformed
// value is kept as written so the server names it in its refusal.
export function observeParam(search) {
  const v = new URLSearchParams(search).get('observe');
  return v === null || v === '' ? null : v;
}

// The WebSocket URL that watches session `id` (any other query of wsUrl is kept).
export function observeUrl(wsUrl, id) {
  const u = new URL(wsUrl);
  u.searchParams.set('observe', String(id));
  return u.toString();
}

// "Watching Ada (session 3) - your keys do nothing"; while this instructor holds the
// controls: "Driving Ada's machine (session 3) - your keys and joystick move it"
export function observerBanner(observing, driving = false) {
  const who = observing.trainee ?? 'an unnamed trainee';
  if (driving) return `Driving ${observing.trainee ? `${who}’s` : 'the trainee’s'} machine (session ${observing.session}) - your keys and joystick move it`;
  return `Watching ${who} (session ${observing.session}) - your keys do nothing`;
}

// Who drives, in the watching instructor's words: the server's `control.text` is the
// trainee's sentence ("You are driving"), which on the watcher's page would say the opposite.
export function observerControlWords(m) {
  if (m.mode === 'trainee') return 'the trainee is driving';
  const kind = m.mode === 'shared' ? 'dual control' : 'exclusive control';
  if (m.you) return `you hold the controls (${kind})`;
  return `${instructorWords(m.holder)} holds the controls (${kind})`;
}

// The five rows of the trainee's inputs, labelled as the trainee's keys are: "Swing (←/→)".
export function inputRows(layout) {
  return SIGNALS.map((name, i) => {
    const s = layout?.signals?.[i];
    return { name, label: s ? `${s.label} (${s.plus.label}/${s.minus.label})` : name };
  });
}


// One event of an `events` message in words: "12.3 s  gripped log-1".
export function describeEvent(e, t) {
  const words = eventPhrase(e.kind);
  let detail = '';
  if (e.kind === 'grip' || e.kind === 'release') detail = ` ${e.load ?? 'a load'}`;
  else if (e.kind === 'lesson_step') detail = ` ${Number(e.step) + 1}`;
  else if (e.kind === 'delivered') detail = ` (${e.delivered} so far)`;
  else if (e.kind === 'task_finished') detail = e.completed ? ': completed' : ': not completed';
  else if (e.kind === 'control') detail = ` ${e.mode}`;
  else if (e.kind === 'faults') detail = ` ${e.count} active`;
  else if (Number(e.count) > 1) detail = ` x${e.count}`;
  const when = typeof t === 'number' ? `${t.toFixed(1)} s  ` : '';
  return `${when}${words}${detail}`;
}
