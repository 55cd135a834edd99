// The instructor's desk panel in observer mode (issue 11): take, share or hand back the
// controls, and a message for the trainee's screen. desk.js holds the words and rules;
// this file draws them and reports clicks.

import { el, setText } from './dom.js';
import { deskStatus, deskButtons } from './desk.js';

export function createDeskUi({ panel, onRequest, onMessage }) {
  const status = el('p', { class: 'desk-status', id: 'desk-status', role: 'status' });
  const buttons = el('div', { class: 'desk-buttons' });
  const answer = el('p', { class: 'desk-answer', id: 'desk-answer', 'aria-live': 'polite' });
  const text = el('input', { id: 'desk-message', maxlength: '200', autocomplete: 'off',
    placeholder: 'Message to the trainee\u2019s screen', 'aria-label': 'Message to the trainee' });
  const form = el('form', { class: 'desk-message-row', id: 'desk-message-form' }, text,
    el('button', { type: 'submit' }, 'Send'));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (text.value.trim() === '') return;
    onMessage(text.value);
    text.value = '';
  });
  const faults = el('div', { class: 'desk-faults', id: 'desk-faults' });
  panel.replaceChildren(el('h3', {}, 'Controls'), status, buttons, answer,
    el('h3', {}, 'Message'), form, faults);

  return {
    faultsPanel: faults,
    show(state) {
      panel.hidden = false;
      setText(status, deskStatus(state));
      panel.dataset.mode = state.mode;
      panel.dataset.you = String(state.you);
      buttons.replaceChildren(...deskButtons(state).map((b) => el('button', {
        type: 'button', id: `desk-${b.id}`, title: b.title,
        ...(b.disabled ? { disabled: '' } : {}),
        onclick: () => onRequest(b.request, b.wait),
      }, b.label)));
      if (state.answer) {
        setText(answer, state.answer.message);
        answer.dataset.result = state.answer.result;
      }
    },
    error(message) {
      setText(answer, message);
      answer.dataset.result = 'error';
    },
  };
}
