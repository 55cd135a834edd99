// The instructor's desk panel in observer mode (docs/instructor.md): take, share or hand back the
// controls, and a message for the trainee's screen. desk.js holds the words and rules;
// this file draws them and reports clicks.

import { el, setText } from './dom.js';
import { deskStatus, deskButtons } from './desk.js';
import { faultTitle, faultFields, faultParams, faultTarget } from './fault-form.js';

export function createDeskUi({ panel, onRequest, onMessage, onFault, onClearFault }) {
  const status = el('p', { class: 'desk-status', id: 'desk-status', role: 'status' });
  const buttons = el('div', { class: 'desk-buttons' });
  const answer = el('p', { class: 'desk-answer', id: 'desk-answer', 'aria-live': 'polite' });
  const faults = faultForm(onFault, onClearFault);
  panel.replaceChildren(el('h3', {}, 'Controls'), status, buttons, answer,
    el('h3', {}, 'Message'), messageForm(onMessage), el('h3', {}, 'Faults'), faults.box);

  return {
    catalog: faults.setCatalog,
    faults: faults.showActive,
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

function messageForm(onMessage) {
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
  return form;
}

// faults: the form comes from the server's catalog (setCatalog); the active list from
// `faults` (showActive)
function faultForm(onFault, onClearFault) {
  let catalog = [];
  const faultName = el('select', { id: 'desk-fault-name', 'aria-label': 'Fault' });
  const faultHelp = el('p', { class: 'desk-fault-help', id: 'desk-fault-help' });
  const faultParamsBox = el('div', { class: 'desk-fault-params' });
  const inject = el('button', { type: 'button', id: 'desk-fault-inject' }, 'Inject');
  const active = el('ul', { class: 'desk-faults-active', id: 'desk-faults-active', 'aria-live': 'polite' });
  const clearAll = el('button', { type: 'button', id: 'desk-fault-clear-all', onclick: () => onClearFault('all', {}) }, 'Clear all');
  const chosen = () => catalog.find((e) => e.name === faultName.value);
  const showFields = () => {
    const entry = chosen();
    setText(faultHelp, entry?.summary ?? '');
    faultParamsBox.replaceChildren(...faultFields(entry).map(faultField));
  };
  faultName.addEventListener('change', showFields);
  inject.addEventListener('click', () => {
    const entry = chosen();
    if (!entry) return;
    const values = {};
    for (const i of faultParamsBox.querySelectorAll('[name]')) values[i.name] = i.value;
    onFault(entry.name, faultParams(entry, values));
  });
  const box = el('div', { class: 'desk-faults', id: 'desk-faults' },
    el('div', { class: 'desk-fault-row' }, faultName, inject), faultHelp, faultParamsBox,
    // "Clear all" beside its heading: at the desk's foot a 768 px screen cut it off
    el('div', { class: 'desk-active-head' }, el('h3', {}, 'Active faults'), clearAll), active);
  return {
    box,
    setCatalog(list) {
      catalog = Array.isArray(list) ? list : [];
      faultName.replaceChildren(...catalog.map((e) => el('option', { value: e.name, title: e.summary ?? '' }, faultTitle(e.name))));
      showFields();
    },
    showActive(list) {
      active.replaceChildren(...list.map((f) => el('li', { 'data-name': f.name },
        el('span', {}, f.text ?? faultTitle(f.name)),
        el('button', { type: 'button', title: 'Clear this fault', onclick: () => onClearFault(f.name, faultTarget(f, catalog)) }, 'Clear'))));
      if (!list.length) active.append(el('li', { class: 'hint' }, 'none'));
      clearAll.disabled = list.length === 0;
    },
  };
}

// one parameter of the chosen fault: a list of its choices or a number in its range
function faultField(f) {
  const input = f.kind === 'choice'
    ? el('select', { id: `desk-fault-param-${f.name}`, name: f.name },
      ...f.choices.map((c) => el('option', { value: c, ...(c === f.value ? { selected: '' } : {}) }, c)))
    : el('input', { id: `desk-fault-param-${f.name}`, name: f.name, type: 'number', min: String(f.min),
      max: String(f.max), step: String(f.step), value: String(f.value) });
  return el('label', { title: f.help }, el('span', {}, f.label), input);
}
