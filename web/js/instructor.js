// The instructor's overview (instructor.html): every trainee connected now, with the task's
// live score, and the tasks that have finished, from the server's /api/sessions and
// /api/reports (docs/web-client.md). The row-building functions are pure, for the node
// tests; the page glue at the bottom only runs in a browser.

import { replayPageUrl } from './replay.js';
import { PENALTY_COLUMNS } from './event-kinds.js';

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
  if (t.finished) return t.tipped_over ? 'tipped over' : 'timed out';
  return t.running ? 'running' : 'waiting';
}

// What instructors are doing to a session: "ann drives", "dual: ann", "2 faults" (the
// faults' words on hover come from the server's `text`).
export function instructorState(s) {
  const parts = [];
  if (s.control?.mode === 'exclusive') parts.push(`${s.control.holder ?? 'instructor'} drives`);
  else if (s.control?.mode === 'shared') parts.push(`dual: ${s.control.holder ?? 'instructor'}`);
  const n = Array.isArray(s.faults) ? s.faults.length : 0;
  if (n) parts.push(n === 1 ? '1 fault' : `${n} faults`);
  return parts.join(' · ');
}

// One row per live session: {id, state, late, cells: [{text, cls?, count?}]}.
export function sessionRows(body) {
  const sessions = Array.isArray(body?.sessions) ? body.sessions : [];
  return sessions.map((s) => {
    const t = s.task ?? null;
    const state = !t && s.lesson ? lessonState(s.lesson) : taskState(t);
    const desk = instructorState(s);
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
        { text: desk ? `${state} · ${desk}` : state, cls: 'state',
          title: (s.faults ?? []).map((f) => f.text ?? f.name).join('\n') },
        { text: clock, cls: 'num clock' },
        { text: t ? `${t.delivered} / ${t.required}` : '–', cls: 'num' },
        ...PENALTY_COLUMNS.map((c) => penalty(t?.[c.countKey])),
        { text: t ? String(Math.round(t.total)) : '–', cls: 'num points' },
        // the browser client in observer mode on this session (browser or CORBA alike)
        // ... and a one-time ticket for a classroom PC's clamsim-receiver --observe
        { text: 'Watch', links: [{ href: `/?observe=${encodeURIComponent(s.id)}`, text: 'Watch', cls: 'watch' }],
          buttons: [{ text: 'Ticket', session: s.id, cls: 'ticket',
            title: 'A one-time ticket to watch this trainee with clamsim-receiver on a classroom PC' }] },
      ],
    };
  });
}

// ---- finished tasks: local times, the filter, the rows --------------------------------

const two = (n) => String(n).padStart(2, '0');

// "2026-11-21T21:50:01Z" -> "2026-11-21 22:50" in the browser's time zone; null if not a time.
export function localDateTime(iso) {
  const d = typeof iso === 'string' && iso ? new Date(iso) : null;
  if (!d || Number.isNaN(d.getTime())) return null;
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

// The browser's offset from UTC at `when`, for the column header: "UTC+1", "UTC-3:30", "UTC".
export function utcOffsetText(when = new Date()) {
  const minutes = -when.getTimezoneOffset();
  if (minutes === 0) return 'UTC';
  const a = Math.abs(minutes);
  return `UTC${minutes > 0 ? '+' : '-'}${Math.floor(a / 60)}${a % 60 ? `:${two(a % 60)}` : ''}`;
}

// A local calendar day "2026-11-21" (an <input type=date>'s value) plus `days`, as the UTC
// time of its local midnight: "2026-11-20T23:00:00Z" in Berlin. null for an empty value.
function localMidnightUtc(day, days = 0) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day ?? '');
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days);
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

// The server's filter query (GET /api/reports and /api/reports.csv) for the page's fields:
// a trainee's name (part of it), and the local days from and to, both included.
export function reportFilterQuery({ trainee = '', from = '', to = '' } = {}) {
  const q = new URLSearchParams();
  if (trainee.trim()) q.set('trainee', trainee.trim());
  const lo = localMidnightUtc(from);
  const hi = localMidnightUtc(to, 1);  // "to" is the whole day: up to the next midnight
  if (lo) q.set('from', lo);
  if (hi) q.set('to', hi);
  return q.toString();
}

// One row per finished report, newest first as the server lists them; the time is local.
export function reportRows(body) {
  const reports = Array.isArray(body?.reports) ? body.reports : [];
  return reports.map((r) => {
    const name = encodeURIComponent(r.name);
    const readable = r.outcome !== 'unreadable';
    // a finished first lesson is listed with its steps, not loads, and no points
    const lesson = r.kind === 'lesson';
    return {
      name: r.name,
      state: r.outcome,
      cells: [
        { text: localDateTime(r.ended_utc) ?? '–' },
        { text: r.trainee || '–', cls: 'trainee' },
        { text: r.session || '–' },
        { text: lesson ? `lesson ${r.outcome}` : r.outcome || '–', cls: 'state' },
        { text: formatClock(r.elapsed_s) ?? '–', cls: 'num' },
        { text: r.required ? `${r.delivered} / ${r.required}${lesson ? ' steps' : ''}` : '–', cls: 'num' },
        { text: readable && !lesson ? String(Math.round(r.total ?? 0)) : '–', cls: 'num points' },
        { text: readable ? 'Open' : 'JSON', links: [
          ...(readable ? [{ href: `report.html?name=${name}`, text: 'Open', cls: 'open' }] : []),
          { href: `api/reports/${name}`, text: 'JSON', cls: 'json' },
          // the recorded run, from where this task's attempt began (docs/web-client.md)
          ...(r.recording ? [{ href: replayPageUrl(r.recording, { from: Number.isInteger(r.recording_from_k) ? r.recording_from_k : null }),
            text: 'Replay', cls: 'replay' }] : []),
        ] },
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
      if (c.title) td.title = c.title;
      if (c.links) {
        td.className = 'links';
        td.append(...c.links.map((l) => {
          const a = doc.createElement('a');
          a.href = l.href;
          a.target = '_blank';
          a.rel = 'noopener';
          a.className = l.cls;
          a.textContent = l.text;
          return a;
        }), ...(c.buttons ?? []).map((b) => {
          const button = doc.createElement('button');
          button.type = 'button';
          button.className = b.cls;
          button.dataset.session = String(b.session);
          button.textContent = b.text;
          if (b.title) button.title = b.title;
          return button;
        }));
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

// The server refused the filter (400): its message names the field.
class FilterRefused extends Error {}

async function fetchReports(query) {
  const url = query ? `api/reports?${query}` : 'api/reports';
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), POLL.timeoutMs);
  try {
    const res = await fetch(url, { cache: 'no-store', signal: ctl.signal });
    if (res.status === 401) throw new LoginNeeded(url);
    if (res.status === 400) throw new FilterRefused((await res.text()).trim());
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    return await res.json();
  } finally {
    clearTimeout(timer);
  }
}

// The filter form above the finished tasks: its query, the CSV link that follows it, and
// a fresh list (onChange) as soon as a field changes.
function reportFilter(doc, onChange) {
  const field = (id) => doc.getElementById(id);
  const query = () => reportFilterQuery({ trainee: field('filter-trainee').value,
    from: field('filter-from').value, to: field('filter-to').value });
  let typing = null;
  const changed = () => {
    const q = query();
    field('export-csv').href = q ? `api/reports.csv?${q}` : 'api/reports.csv';
    clearTimeout(typing);
    typing = setTimeout(onChange, 250);  // one request per pause in typing
  };
  const form = field('report-filter');
  form.addEventListener('input', changed);
  form.addEventListener('submit', (e) => e.preventDefault());
  form.addEventListener('reset', () => setTimeout(changed));  // after the fields are cleared
  const error = field('filter-error');
  return {
    query,
    showError(text) {
      error.hidden = !text;
      error.textContent = text ?? '';
    },
  };
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

// "Ticket": asks the server for a one-time ticket to watch session `id` from a
// classroom PC and shows the command line it answers with (docs/instructor.md).
async function showTicket(doc, id) {
  const panel = doc.getElementById('ticket');
  const text = doc.getElementById('ticket-command');
  const note = doc.getElementById('ticket-note');
  panel.hidden = false;
  text.textContent = '';
  note.textContent = `Asking for a ticket for session ${id}…`;
  try {
    const res = await fetch(`/api/sessions/${encodeURIComponent(id)}/observe-ticket`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}', cache: 'no-store' });
    const body = await res.json().catch(() => ({}));
    if (res.status === 401) return toLogin();
    if (!res.ok) throw new Error(body.message ?? `HTTP ${res.status}`);
    text.textContent = body.command;
    note.textContent = `Run this on a classroom PC within ${Math.round(body.expires_in_s / 60)} minutes; ` +
      'the ticket works once, for this session only.';
  } catch (e) {
    note.textContent = `No ticket: ${e.message ?? e}`;
  }
}

function ticketPanel(doc, live) {
  live.addEventListener('click', (e) => {
    const button = e.target.closest?.('button.ticket');
    if (button) showTicket(doc, button.dataset.session);
  });
  doc.getElementById('ticket-copy').addEventListener('click', () => {
    navigator.clipboard?.writeText(doc.getElementById('ticket-command').textContent).catch(() => {});
  });
  doc.getElementById('ticket-close').addEventListener('click', () => {
    doc.getElementById('ticket').hidden = true;
  });
}

// The live table's penalty columns, one per kind event-kinds.js knows, where the page marks them.
function penaltyHeads(mark) {
  mark.replaceWith(...PENALTY_COLUMNS.map((c) => {
    const th = mark.ownerDocument.createElement('th');
    th.className = 'num';
    th.title = c.word;
    th.textContent = c.short;
    return th;
  }));
}

function startPage(doc) {
  const linkState = doc.getElementById('link-state');
  const setLink = (state, text) => {
    linkState.dataset.state = state;
    linkState.textContent = text;
  };
  const live = doc.querySelector('#live tbody');
  const reports = doc.querySelector('#reports tbody');
  penaltyHeads(doc.getElementById('live-penalties'));
  const state = { sessions: null, reports: null };
  window.clamsimInstructor = { state };  // for the end-to-end tests
  ticketPanel(doc, live);

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
  const filter = reportFilter(doc, () => pollReports(true));
  let reportsTimer = null;
  async function pollReports(now = false) {
    if (now) clearTimeout(reportsTimer);
    const query = filter.query();
    try {
      const body = await fetchReports(query);
      if (query !== filter.query()) return;  // the filter changed meanwhile: that fetch shows
      const rows = reportRows(body);
      renderRows(reports, rows, 'name');
      filter.showError(null);
      doc.getElementById('reports-count').textContent = query ? `(${rows.length} matching)` : '';
      const empty = doc.getElementById('reports-empty');
      empty.textContent = query ? 'No finished task matches the filter.' : 'No task has finished yet.';
      empty.hidden = rows.length > 0;
      state.reports = body;
    } catch (e) {
      if (e instanceof LoginNeeded) return;  // the sessions poll goes to the login page
      if (e instanceof FilterRefused) filter.showError(e.message);
      // otherwise the sessions poll reports the link; keep the last list
    }
    clearTimeout(reportsTimer);
    reportsTimer = setTimeout(pollReports, POLL.reportsMs);
  }
  doc.getElementById('ended-header').textContent = `Ended (local time, ${utcOffsetText()})`;
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
