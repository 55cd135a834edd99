// The instructor's overview (instructor.html): every trainee connected now, with the task's
// live score, and the tasks that have finished, from the server's /api/sessions and
// /api/reports (docs/web-client.md). The row-building functions are pure, for the node
// tests; the page glue at the bottom only runs in a browser.

export const POLL = { sessionsMs: 1000, reportsMs: 5000, timeoutMs: 3000 };

// 75.4 s -> "1:15"; null for a missing time.
export function formatClock(s) {
  if (!Number.isFinite(s) || s < 0) return null;
  const whole = Math.floor(s);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

// The first lesson (docs/training-task.md): where the trainee is in it.
function lessonState(l) {
  if (!l) return null;
  return l.finished ? 'lesson finished' : `lesson: step ${Math.min(l.step + 1, l.steps)} of ${l.steps}`;
}

function taskState(t) {
  if (!t) return 'no task';
  if (t.completed) return 'completed';
  if (t.finished) return 'timed out';
  return t.running ? 'running' : 'waiting';
}

// One row per live session: {id, state, late, cells: [{text, cls?, count?}]}.
export function sessionRows(body) {
  const sessions = Array.isArray(body?.sessions) ? body.sessions : [];
  return sessions.map((s) => {
    const t = s.task ?? null;
    const state = !t && s.lesson ? lessonState(s.lesson) : taskState(t);
    const clock = t ? `${formatClock(t.elapsed_s) ?? '–'} / ${formatClock(t.optimum_s) ?? '–'}` : '–';
    const penalty = (n) => ({ text: t ? String(n ?? 0) : '–', cls: 'num penalty', count: t ? n ?? 0 : undefined });
    return {
      id: s.id,
      state,
      late: Boolean(t && t.elapsed_s > t.optimum_s),
      cells: [
        { text: `#${s.id}` },
        { text: s.trainee || '–', cls: 'trainee' },
        { text: `${s.model ?? '?'} · ${s.world ?? 'empty space'}` },
        { text: state, cls: 'state' },
        { text: clock, cls: 'num clock' },
        { text: t ? `${t.delivered} / ${t.required}` : '–', cls: 'num' },
        penalty(t?.rack_gate_hits),
        penalty(t?.structure_hits),
        penalty(t?.slack_cables),
        penalty(t?.overloads),
        penalty(t?.dropped_loads),
        { text: t ? String(Math.round(t.total)) : '–', cls: 'num points' },
      ],
    };
  });
}

// One row per finished report, newest first as the server lists them.
export function reportRows(body) {
  const reports = Array.isArray(body?.reports) ? body.reports : [];
  return reports.map((r) => {
    // a finished first lesson is listed with its steps, not loads, and no points
    const lesson = r.kind === 'lesson';
    return {
      name: r.name,
      state: r.outcome,
      cells: [
        { text: (r.ended_utc ?? '').replace('T', ' ').replace('Z', '') || '–' },
        { text: r.trainee || '–', cls: 'trainee' },
        { text: r.session || '–' },
        { text: lesson ? `lesson ${r.outcome}` : r.outcome || '–', cls: 'state' },
        { text: formatClock(r.elapsed_s) ?? '–', cls: 'num' },
        { text: r.required ? `${r.delivered} / ${r.required}${lesson ? ' steps' : ''}` : '–', cls: 'num' },
        { text: r.outcome === 'unreadable' || lesson ? '–' : String(Math.round(r.total ?? 0)), cls: 'num points' },
        { link: `api/reports/${encodeURIComponent(r.name)}`, text: 'JSON' },
      ],
    };
  });
}

// The login page's address that brings the user back to `path` afterwards.
export function loginUrl(path = '/instructor.html') {
  return `/login.html?next=${encodeURIComponent(path)}`;
}

// ---- page glue ---------------------------------------------------------------------------

// Instructor data needs a login when the server has accounts: a 401 sends the user to it.
class LoginNeeded extends Error {}

function renderRows(tbody, rows, key) {
  const doc = tbody.ownerDocument;
  tbody.replaceChildren(...rows.map((row) => {
    const tr = doc.createElement('tr');
    tr.dataset.key = String(row[key]);
    tr.dataset.state = row.state;
    if (row.late !== undefined) tr.dataset.late = String(row.late);
    for (const c of row.cells) {
      const td = doc.createElement('td');
      if (c.cls) td.className = c.cls;
      if (c.count !== undefined) td.dataset.count = String(c.count);
      if (c.link) {
        const a = doc.createElement('a');
        a.href = c.link;
        a.target = '_blank';
        a.rel = 'noopener';
        a.textContent = c.text;
        td.append(a);
      } else {
        td.textContent = c.text;
      }
      tr.append(td);
    }
    return tr;
  }));
}

async function fetchJson(url) {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), POLL.timeoutMs);
  try {
    const res = await fetch(url, { cache: 'no-store', signal: ctl.signal });
    if (res.status === 401) throw new LoginNeeded(url);
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    return await res.json();
  } finally {
    clearTimeout(timer);
  }
}

function toLogin() {
  location.assign(loginUrl(location.pathname));
}

// Who is logged in, and the "Log out" button (hidden while the server needs no login).
async function showWho(doc) {
  const me = await fetchJson('api/me');
  if (!me.login_required) return;
  const who = doc.getElementById('who');
  who.textContent = `logged in as ${me.name}`;
  who.hidden = false;
  const logout = doc.getElementById('logout');
  logout.hidden = false;
  logout.addEventListener('click', async () => {
    await fetch('/api/logout', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: '{}', cache: 'no-store' }).catch(() => {});
    toLogin();
  });
}

function startPage(doc) {
  const linkState = doc.getElementById('link-state');
  const setLink = (state, text) => {
    linkState.dataset.state = state;
    linkState.textContent = text;
  };
  const live = doc.querySelector('#live tbody');
  const reports = doc.querySelector('#reports tbody');
  const state = { sessions: null, reports: null };
  window.clamsimInstructor = { state };  // for the end-to-end tests

  async function pollSessions() {
    try {
      const body = await fetchJson('api/sessions');
      const rows = sessionRows(body);
      renderRows(live, rows, 'id');
      doc.getElementById('live-count').textContent = `(${rows.length} of ${body.capacity ?? '?'})`;
      doc.getElementById('live-empty').hidden = rows.length > 0;
      state.sessions = body;
      setLink('ok', 'server connected');
    } catch (e) {
      if (e instanceof LoginNeeded) return toLogin();
      setLink('lost', `server not answering (${e.message ?? e})`);
    }
    setTimeout(pollSessions, POLL.sessionsMs);
  }
  async function pollReports() {
    try {
      const body = await fetchJson('api/reports');
      const rows = reportRows(body);
      renderRows(reports, rows, 'name');
      doc.getElementById('reports-empty').hidden = rows.length > 0;
      state.reports = body;
    } catch (e) {
      if (e instanceof LoginNeeded) return;  // the sessions poll goes to the login page
      // the sessions poll reports the link; keep the last list
    }
    setTimeout(pollReports, POLL.reportsMs);
  }
  showWho(doc).then(() => {
    pollSessions();
    pollReports();
  }, (e) => {
    if (e instanceof LoginNeeded) return toLogin();
    pollSessions();  // the server is not answering: the polls say so and retry
    pollReports();
  });
}

if (typeof document !== 'undefined' && document.getElementById('live')) startPage(document);
