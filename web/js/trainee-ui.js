// Who is at the controls: "Trainee: <name> [change]" in the header, a small form that opens
// in place, and on a first visit (no stored name) the same form on a card over the view that
// does not take the focus, so the crane flies without a name. What the name is and what the
// server said comes from trainee.js (makeTraineeSync().view()); this file only shows it.

import { TRAINEE_MAX_CHARS, traineeNameLength } from './trainee.js';
import { el, setText } from './dom.js';

const LATER_KEY = 'clamsim.trainee.later.v1';  // sessionStorage: "Not now" for this tab

const STATE_TEXT = {
  acknowledged: ['✔', 'The server records this name for this session'],
  sending: ['sending…', 'Sent to the server, waiting for its answer'],
  offline: ['not connected', 'Sent to the server as soon as the page connects'],
  unsupported: ['not recorded', 'This server does not record trainee names'],
  none: ['', ''],
};

// slot: the header's element; prompt: the card over the view; session: sessionStorage;
// submit(raw) -> {ok, error} (trainee.js's sync.submit, plus sending); clearError().
// The state (where the form is, the last view) and the elements live in one object (t)
// that the functions below share.
export function createTraineeUi({ slot, prompt, session, submit, clearError = () => {} }) {
  const t = {
    slot, prompt, session, submit, clearError,
    mode: 'line',  // 'line', 'edit' (form in the header), 'prompt' (form on the card)
    later: false,
    last: null,
  };
  try { t.later = session?.getItem(LATER_KEY) === '1'; } catch { /* storage blocked */ }
  buildLine(t);
  buildForm(t);
  bindForm(t);
  slot.replaceChildren(t.line);
  prompt.replaceChildren(
    el('h2', { id: 'trainee-prompt-title' }, 'Who is training?'),
    el('p', { class: 'hint' }, 'Your name goes to the instructor with your score. You can fly without it.'));
  prompt.setAttribute('aria-labelledby', 'trainee-prompt-title');
  return {
    show: (v) => show(t, v),
    refused: (rejected, message) => refused(t, rejected, message),
    open: () => openForm(t, true),
    get mode() { return t.mode; },
  };
}

// ---- the compact line ----
function buildLine(t) {
  t.name = el('span', { class: 'trainee-name', id: 'trainee-name' });
  t.status = el('span', { class: 'trainee-status', id: 'trainee-status' });
  t.change = el('button', { type: 'button', class: 'link', id: 'trainee-change', onclick: () => openForm(t, true) }, 'change');
  t.line = el('span', { class: 'trainee-line' }, el('span', { class: 'label' }, 'Trainee:'), ' ', t.name, ' ', t.status, ' ', t.change);
}

// ---- the form (moved between the header and the card) ----
function buildForm(t) {
  t.input = el('input', { type: 'text', id: 'trainee-input', name: 'trainee', autocomplete: 'name', spellcheck: 'false',
    placeholder: 'Your name', 'aria-label': 'Trainee name', 'aria-describedby': 'trainee-count trainee-error' });
  t.count = el('span', { class: 'trainee-count hint', id: 'trainee-count' });
  const save = el('button', { type: 'submit', class: 'primary', id: 'trainee-save' }, 'Save');
  t.cancel = el('button', { type: 'button', id: 'trainee-cancel', onclick: () => dismiss(t) }, 'Cancel');
  t.error = el('span', { class: 'trainee-error', id: 'trainee-error', role: 'alert' });
  t.form = el('form', { id: 'trainee-form', class: 'trainee-form', novalidate: '', autocomplete: 'off' },
    el('label', { class: 'label trainee-form-label', for: 'trainee-input' }, 'Trainee:'), t.input, t.count, save, t.cancel, t.error);
}

function bindForm(t) {
  const { form, input } = t;
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const r = t.submit(input.value);
    if (!r.ok) {
      showError(t, r.error);
      input.focus();
      return;
    }
    showError(t, '');
    closeForm(t);
  });
  input.addEventListener('input', () => {
    showCount(t);
    if (t.error.textContent) showError(t, '');  // the reason was for the old text
  });
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') {
      ev.preventDefault();
      dismiss(t);
    }
  });
}

function showCount(t) {
  const n = traineeNameLength(t.input.value);
  setText(t.count, `${n}/${TRAINEE_MAX_CHARS}`);
  t.count.classList.toggle('over', n > TRAINEE_MAX_CHARS);
}

function showError(t, text) {
  setText(t.error, text);
  t.form.classList.toggle('invalid', Boolean(text));
  t.input.setAttribute('aria-invalid', String(Boolean(text)));
}

// the form in the header (a name is set) or on the card (none yet); focus: the trainee asked
function openForm(t, focus, value = t.last?.name ?? '') {
  t.mode = t.last?.name ? 'edit' : 'prompt';
  t.input.value = value;
  showCount(t);
  if (focus) {
    showError(t, '');
    t.clearError();
  }
  place(t);
  if (focus) {
    t.input.focus({ preventScroll: true });
    t.input.select();
  }
}

function closeForm(t) {
  if (document.activeElement && t.form.contains(document.activeElement)) document.activeElement.blur();
  t.mode = 'line';
  place(t);
}

// Cancel / Not now / Escape: the crane's keys work again; on the card, not again this tab
function dismiss(t) {
  if (t.mode === 'prompt' && !t.last?.name) {
    t.later = true;
    try { t.session?.setItem(LATER_KEY, '1'); } catch { /* storage blocked */ }
  }
  showError(t, '');
  t.clearError();
  closeForm(t);
}

function place(t) {
  const { form, prompt, slot } = t;
  const promptWanted = t.mode === 'prompt' || (t.mode === 'line' && !t.last?.name && !t.later);
  if (promptWanted && t.mode === 'line') {
    t.mode = 'prompt';
    t.input.value = '';
    showCount(t);
  }
  if (t.mode === 'prompt') {
    if (form.parentElement !== prompt) prompt.append(form);
    setText(t.cancel, 'Not now');
  } else if (t.mode === 'edit') {
    if (form.parentElement !== slot) slot.append(form);
    setText(t.cancel, 'Cancel');
  } else {
    form.remove();
  }
  prompt.hidden = t.mode !== 'prompt';
  t.line.hidden = t.mode === 'edit';
  slot.dataset.mode = t.mode;
}

// v: makeTraineeSync().view()
function show(t, v) {
  t.last = v;
  t.slot.dataset.state = v.state;
  setText(t.name, v.name ?? 'not set');
  t.name.classList.toggle('unset', !v.name);
  const [text, title] = STATE_TEXT[v.state] ?? ['', ''];
  setText(t.status, text);
  t.status.title = title;
  setText(t.change, v.name ? 'change' : 'enter name');
  if (t.mode === 'edit' && !v.name) t.mode = 'prompt';
  place(t);
}

// the server refused `rejected`: the form again, with that text and the server's reason
function refused(t, rejected, message) {
  openForm(t, false, rejected ?? t.input.value);
  showError(t, `Not accepted: ${message}`);
}
