// The observer's panel (docs/instructor.md "Watching a trainee"): the banner saying whom the page
// watches, the trainee's five inputs as bars with the trainee's key names, and the events as they
// come. observer.js holds the words; this file only draws them.

import { el, setText } from './dom.js';
import { VOLT_LIMIT } from './protocol.js';
import { observerBanner, inputRows, describeEvent } from './observer.js';

const MAX_EVENTS = 60;   // the list scrolls; older lines go

export function createObserverUi({ panel, banner }) {
  const rows = [];
  const table = el('table', { class: 'hud-table hud-controls', id: 'observer-inputs' },
    el('caption', {}, "Trainee's inputs (V)"));
  const events = el('ol', { class: 'observer-events', id: 'observer-events', 'aria-live': 'polite' });
  panel.replaceChildren(table, el('h3', {}, 'Events'), events);

  function layout(keys) {
    for (const r of rows) r.tr.remove();
    rows.length = 0;
    for (const r of inputRows(keys)) {
      const fill = el('div', { class: 'bar-fill' });
      const value = el('td', { class: 'num' }, '0.0');
      const tr = el('tr', { 'data-signal': r.name }, el('th', {}, r.label),
        el('td', { class: 'bar-cell' }, el('div', { class: 'bar' }, fill)), value);
      table.append(tr);
      rows.push({ tr, fill, value });
    }
  }
  layout(null);

  return {
    layout,
    show(observing, driving = false) {
      panel.hidden = false;
      banner.hidden = false;
      setText(banner, observerBanner(observing, driving));
      banner.dataset.driving = String(driving);
      document.body.dataset.observing = 'true';
    },
    inputs(volts) {
      volts.forEach((v, i) => {
        const r = rows[i];
        if (!r) return;
        const f = Math.max(-1, Math.min(1, v / VOLT_LIMIT));
        r.fill.style.left = `${50 + Math.min(0, f) * 50}%`;
        r.fill.style.width = `${Math.abs(f) * 50}%`;
        setText(r.value, v.toFixed(1));
      });
    },
    events(m) {
      for (const e of m.events) {
        events.prepend(el('li', { 'data-kind': e.kind }, describeEvent(e, m.t)));
      }
      while (events.children.length > MAX_EVENTS) events.lastElementChild.remove();
    },
    // a line of the observer's own (an instructor's message as sent)
    note(text, kind) {
      events.prepend(el('li', { 'data-kind': kind }, text));
      while (events.children.length > MAX_EVENTS) events.lastElementChild.remove();
    },
    clearEvents() { events.replaceChildren(); },
  };
}
