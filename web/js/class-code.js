// The class code (--class-code on the server): when /api/client-config says one is
// required, the page asks for it before connecting and sends it in the WebSocket URL
// (/ws?class_code=...). A refusal closes with 1008 and a reason starting "class code".
// Pure helpers for the node tests; the form's glue is createClassCodeForm.

// wsUrl with the code as its class_code parameter (other parameters kept).
export function withClassCode(wsUrl, code) {
  const url = new URL(wsUrl);
  url.searchParams.set('class_code', code);
  return url.toString();
}

// The server's reason when a close refused the class code, else null.
export function classCodeRefusal(code, rawReason) {
  return code === 1008 && typeof rawReason === 'string' && rawReason.startsWith('class code')
    ? rawReason : null;
}

// The form in index.html (#class-code): shows a message, calls onCode(code) on submit.
export function createClassCodeForm({ form, onCode }) {
  const input = form.querySelector('input');
  const message = form.querySelector('.class-code-message');
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const code = input.value.trim();
    if (!code) return;
    form.hidden = true;
    onCode(code);
  });
  return {
    ask(text = '') {
      message.textContent = text;
      message.hidden = !text;
      form.hidden = false;
      input.focus();
    },
  };
}
