// The first lesson on the page (docs/training-task.md "The first lesson"): what the panel shows,
// from the scene's lesson (hello.scene.lesson: the steps as data) and the frame's progress
// (display.lesson, checked on the server). Pure: no DOM; lesson-ui.js draws it. Keys come from
// input.js's keyLabel, the one place a control becomes a key.

import { keyLabel, keyboardLayout } from './input.js';

export const LESSON_CHOICE_KEY = 'clamsim.lesson.v1';   // localStorage: 'done' or 'skipped'

// "A + E" for [[3, -1], [4, 1]]; "Shift + A + E" at half speed (the layout's half-speed key)
export function keysFor(signals, halfSpeed = false) {
  const keys = (signals ?? []).map(([s, d]) => keyLabel(s, d));
  if (halfSpeed) keys.unshift(keyboardLayout()?.actions?.half_speed?.label ?? '?');
  return keys.join(' + ');
}

// Everything the lesson panel shows. lesson: hello.scene.lesson; progress: display.lesson
// (null before the first frame).
export function lessonView(lesson, progress) {
  const steps = lesson?.steps ?? [];
  const current = progress?.finished ? steps.length : Math.min(progress?.step ?? 0, steps.length);
  return {
    title: lesson?.title ?? 'First lesson',
    finished: Boolean(progress?.finished),
    current,
    counter: progress?.finished ? `all ${steps.length} steps done` : `step ${current + 1} of ${steps.length}`,
    progress: progress?.finished ? 1 : Math.max(0, Math.min(1, progress?.progress ?? 0)),
    setbacks: progress?.setbacks ?? 0,
    steps: steps.map((s, i) => ({
      goal: s.goal,
      label: typeof s.label === 'string' && s.label ? s.label : s.goal,   // the list's few words
      state: i < current ? 'done' : i === current ? 'now' : 'next',
      hints: (s.controls ?? []).map((c) => ({ does: c.does, keys: keysFor(c.signals, c.half_speed === true) })),
    })),
  };
}

// The lesson the dam task offers (hello.scene.task.lesson), unless this browser has done or
// skipped it already; null when there is nothing to offer.
export function lessonOffer(scene, storage) {
  const name = scene?.task?.lesson;
  if (typeof name !== 'string' || !name) return null;
  let choice = null;
  try { choice = storage?.getItem(LESSON_CHOICE_KEY); } catch { /* storage blocked */ }
  return choice === 'done' || choice === 'skipped' ? null : name;
}

// The WebSocket URL of scenario `name` (null: the server's own world), other parameters kept.
export function scenarioUrl(baseUrl, name) {
  const u = new URL(baseUrl);
  if (name) u.searchParams.set('scenario', name);
  else u.searchParams.delete('scenario');
  return u.toString();
}
