// On the page: the first lesson's panel (its steps, the one under way with its goal, the
// keys that do it and how far it is) and, in the dam task, the card that offers the lesson.
// Content comes from lesson.js; this file only builds elements and changes their text.

import { el, setText } from './dom.js';

// panel: the lesson's <section>; offer: the offer's <section>;
// onStart(): take the lesson; onLeave(why): 'skipped' or 'done', back to the dam task;
// onPractice(): the dam task as a practice attempt (no clock)
export function createLessonUi({ panel, offer, onStart, onLeave, onPractice = null }) {
  // ---- the offer, in the dam task ----
  offer.replaceChildren(
    el('div', { class: 'lesson-offer-text' }, el('strong', {}, 'New to the crane?'), ' A two-minute first lesson shows each control.'),
    el('div', { class: 'lesson-actions' },
      el('button', { type: 'button', class: 'primary', id: 'lesson-start', onclick: () => onStart() }, 'Start the first lesson'),
      onPractice ? el('button', { type: 'button', id: 'lesson-practice', title: 'The dam task, scored, without a time limit',
        onclick: () => onPractice() }, 'Practise without the clock') : '',
      el('button', { type: 'button', id: 'lesson-no', onclick: () => onLeave('skipped') }, 'No thanks')));

  // ---- the lesson ----
  const title = el('div', { class: 'lesson-title' });
  const counter = el('div', { class: 'lesson-counter', id: 'lesson-counter' });
  const goal = el('div', { class: 'lesson-goal', id: 'lesson-goal' });
  const hints = el('div', { class: 'lesson-hints', id: 'lesson-hints' });
  const fill = el('div', { class: 'lesson-fill' });
  const list = el('ol', { class: 'lesson-steps' });
  const note = el('div', { class: 'lesson-note hint' });
  const skip = el('button', { type: 'button', id: 'lesson-skip', onclick: () => onLeave('skipped') }, 'Skip the lesson');
  const next = el('button', { type: 'button', class: 'primary', id: 'lesson-next', hidden: '', onclick: () => onLeave('done') }, 'Go to the dam task');
  panel.replaceChildren(el('div', { class: 'lesson-head' }, title, counter), goal, hints,
    el('div', { class: 'lesson-bar', role: 'img', 'aria-label': 'progress of this step' }, fill),
    list, note, el('div', { class: 'lesson-actions' }, next, skip));
  let items = [];
  let shownKey = '';

  function show(v) {
    panel.hidden = false;
    panel.dataset.finished = String(v.finished);
    setText(title, v.title);
    setText(counter, v.counter);
    const now = v.steps[v.current];
    setText(goal, v.finished ? 'Well done: you can open, close, lift, swing and set down a load.' : now?.goal ?? '');
    // the hints change only with the step: rebuild then
    const key = `${v.current}/${v.finished}`;
    if (key !== shownKey) {
      shownKey = key;
      hints.replaceChildren(...(v.finished || !now ? [] : now.hints.map((h) =>
        el('span', { class: 'lesson-hint' }, el('span', { class: 'does' }, `${h.does}:`), ' ', el('kbd', {}, h.keys)))));
      if (items.length !== v.steps.length) {
        // the list names each step in a few words; the step under way has its goal above
        items = v.steps.map((s) => el('li', {}, s.label));
        list.replaceChildren(...items);
      }
    }
    v.steps.forEach((s, i) => { items[i].dataset.state = s.state; });
    fill.style.width = `${(v.progress * 100).toFixed(0)}%`;
    setText(note, v.setbacks ? 'The log slipped out: grip it again.' : '');
    next.hidden = !v.finished;
    skip.hidden = v.finished;
  }

  return {
    show,
    hide() { panel.hidden = true; shownKey = ''; },
    offer(name) { offer.hidden = !name; },
    get visible() { return !panel.hidden; },
  };
}
