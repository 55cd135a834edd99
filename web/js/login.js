// The instructor's login page (login.html): POST /api/login, then back to the page that
// sent us here (?next=, same origin only). The message for a refusal is the server's.

// Where to go after logging in: a path on this server, never another site.
export function nextPage(search) {
  const next = new URLSearchParams(search).get('next') ?? '';
  return /^\/(?![/\\])[^\s]*$/.test(next) ? next : '/instructor.html';
}

// The text to show for a login answer that was not 200.
export function refusalText(status, body) {
  const said = typeof body?.message === 'string' ? body.message : '';
  if (status === 429) return said || 'Too many failed attempts; try again later.';
  if (status === 401) return said || 'Wrong name or password.';
  return said ? `Login refused: ${said}` : `Login failed (HTTP ${status}).`;
}

function startPage(doc) {
  const form = doc.getElementById('login');
  const message = doc.getElementById('message');
  const show = (text) => {
    message.textContent = text;
    message.hidden = !text;
  };
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    show('');
    const button = doc.getElementById('submit');
    button.disabled = true;
    try {
      const res = await fetch('/api/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: doc.getElementById('name').value,
          password: doc.getElementById('password').value }),
        cache: 'no-store',
      });
      const body = await res.json().catch(() => null);
      if (res.ok) {
        location.assign(nextPage(location.search));
        return;
      }
      doc.getElementById('password').value = '';
      show(refusalText(res.status, body));
    } catch (e) {
      show(`The server did not answer (${e.message ?? e}).`);
    } finally {
      button.disabled = false;
    }
  });
}

if (typeof document !== 'undefined' && document.getElementById('login')) startPage(document);
