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
// submit(raw) -> {ok, error} (trainee.js's sync.submit, plus sending); clearError()
export function createTraineeUi({ slot, prompt, session, submit, clearError = () => {} }) {
  let mode = 'line';  // 'line', 'edit' (form in the header), 'prompt' (form on the card)
  let later = false;
  try { later = session?.getItem(LATER_KEY) === '1'; } catch { /* storage blocked */ }
  let last = null;

  // ---- the compact line ----
  const name = el('span', { class: 'trainee-name', id: 'trainee-name' });
  const status = el('span', { class: 'trainee-status', id: 'trainee-status' });
  const change = el('button', { type: 'button', class: 'link', id: 'trainee-change', onclick: () => openForm(true) }, 'change');
  const line = el('span', { class: 'trainee-line' }, el('span', { class: 'label' }, 'Trainee:'), ' ', name, ' ', status, ' ', change);

  // ---- the form (moved between the header and the card) ----
  const input = el('input', { type: 'text', id: 'trainee-input', name: 'trainee', autocomplete: 'name', spellcheck: 'false',
    placeholder: 'Your name', 'aria-label': 'Trainee name', 'aria-describedby': 'trainee-count trainee-error' });
  const count = el('span', { class: 'trainee-count hint', id: 'trainee-count' });
  const save = el('button', { type: 'submit', class: 'primary', id: 'trainee-save' }, 'Save');
  const cancel = el('button', { type: 'button', id: 'trainee-cancel', onclick: () => dismiss() }, 'Cancel');
  const error = el('span', { class: 'trainee-error', id: 'trainee-error', role: 'alert' });
  const form = el('form', { id: 'trainee-form', class: 'trainee-form', novalidate: '', autocomplete: 'off' },
    el('label', { class: 'label trainee-form-label', for: 'trainee-input' }, 'Trainee:'), input, count, save, cancel, error);

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const r = submit(input.value);
    if (!r.ok) {
      showError(r.error);
      input.focus();
      return;
    }
    showError('');
    closeForm();
  });
  input.addEventListener('input', () => {
    showCount();
    if (error.textContent) showError('');  // the reason was for the old text
  });
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') {
      ev.preventDefault();
      dismiss();
    }
  });

  slot.replaceChildren(line);
  prompt.replaceChildren(
    el('h2', { id: 'trainee-prompt-title' }, 'Who is training?'),
    el('p', { class: 'hint' }, 'Your name goes to the instructor with your score. You can fly without it.'));
  prompt.setAttribute('aria-labelledby', 'trainee-prompt-title');

  function showCount() {
    const n = traineeNameLength(input.value);
    setText(count, `${n}/${TRAINEE_MAX_CHARS}`);
    count.classList.toggle('over', n > TRAINEE_MAX_CHARS);
  }

  function showError(text) {
    setText(error, text);
    form.classList.toggle('invalid', Boolean(text));
    input.setAttribute('aria-invalid', String(Boolean(text)));
  }

  // the form in the header (a name is set) or on the card (none yet); focus: the trainee asked
  function openForm(focus, value = last?.name ?? '') {
    mode = last?.name ? 'edit' : 'prompt';
    input.value = value;
    showCount();
    if (focus) {
      showError('');
      clearError();
    }
    place();
    if (focus) {
      input.focus({ preventScroll: true });
      input.select();
    }
  }

  function closeForm() {
    if (document.activeElement && form.contains(document.activeElement)) document.activeElement.blur();
    mode = 'line';
    place();
  }

  // Cancel / Not now / Escape: the crane's keys work again; on the card, not again this tab
  function dismiss() {
    if (mode === 'prompt' && !last?.name) {
      later = true;
      try { session?.setItem(LATER_KEY, '1'); } catch { /* storage blocked */ }
    }
    showError('');
    clearError();
    closeForm();
  }

  function place() {
    const promptWanted = mode === 'prompt' || (mode === 'line' && !last?.name && !later);
    if (promptWanted && mode === 'line') {
      mode = 'prompt';
      input.value = '';
      showCount();
    }
    if (mode === 'prompt') {
      if (form.parentElement !== prompt) prompt.append(form);
      setText(cancel, 'Not now');
    } else if (mode === 'edit') {
      if (form.parentElement !== slot) slot.append(form);
      setText(cancel, 'Cancel');
    } else {
      form.remove();
    }
    prompt.hidden = mode !== 'prompt';
    line.hidden = mode === 'edit';
    slot.dataset.mode = mode;
  }

  // v: makeTraineeSync().view()
  function show(v) {
    last = v;
    slot.dataset.state = v.state;
    setText(name, v.name ?? 'not set');
    name.classList.toggle('unset', !v.name);
    const [text, title] = STATE_TEXT[v.state] ?? ['', ''];
    setText(status, text);
    status.title = title;
    setText(change, v.name ? 'change' : 'enter name');
    if (mode === 'edit' && !v.name) mode = 'prompt';
    place();
  }

  // the server refused `rejected`: the form again, with that text and the server's reason
  function refused(rejected, message) {
    openForm(false, rejected ?? input.value);
    showError(`Not accepted: ${message}`);
  }

  return {
    show,
    refused,
    open: () => openForm(true),
    get mode() { return mode; },
  };
}
