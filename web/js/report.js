// One finished task's report for people (report.html?name=report-....json): the trainee,
// the outcome, local times, the points and how they were lost, the timeline of penalties
// and the versions it was scored with, from GET /api/reports/NAME (clamsim-report/1,
// docs/training-task.md). The figures are shown as the server rounded them
// (server/training/report_figures.h). reportView is pure, for the node tests; the page glue
// at the bottom only runs in a browser.

import { formatClock, localDateTime, loginUrl } from './instructor.js';
import { timelineWords, isNote } from './timeline-words.js';
import { eventKind } from './event-kinds.js';


const num = (v) => (Number.isFinite(v) ? v : null);

// 307.5 -> "5:07.5"; whole seconds without a fraction: 300 -> "5:00".
export function clockWithTenths(s) {
  if (num(s) === null || s < 0) return '–';
  const whole = formatClock(s);
  const tenths = Math.round((s - Math.floor(s)) * 10);
  return tenths === 0 || tenths === 10 ? formatClock(Math.round(s)) : `${whole}.${tenths}`;
}

function whatHappened(e) {
  return timelineWords(e) ?? String(e.kind ?? 'penalty');
}

const shortHash = (h) => (typeof h === 'string' && h.length > 12 ? `${h.slice(0, 12)}…` : h || '–');

// What the page shows, from the report's JSON: {title, outcome, task, facts: [[label,
// text]], penalties: [[what, count, each, points]], timeline: [[clock, what, points]],
// versions: [[label, text, title?]]}. Missing or wrong fields show as "–", never throw.
export function reportView(r) {
  if (!r || typeof r !== 'object' || r.schema !== 'clamsim-report/1') return null;
  const loads = Array.isArray(r.loads) ? r.loads : [];
  const delivered = loads.filter((l) => l?.delivered).map((l) => l.name);
  const facts = [
    ['Started', localDateTime(r.started_utc) ?? '–'],
    ['Ended', localDateTime(r.ended_utc) ?? '–'],
    // a practice attempt has no limit (limit_s null): said, not shown as "–"
    ['Time', `${clockWithTenths(r.elapsed_s)} (optimum ${clockWithTenths(r.optimum_s)}, ${r.practice === true ? 'practice: no limit' : `limit ${clockWithTenths(r.limit_s)}`})`],
    ['Delivered', `${r.delivered ?? '–'} of ${r.required ?? '–'}${delivered.length ? ` (${delivered.join(', ')})` : ''}`],
    ['Points', `${num(r.total) ?? '–'} = ${num(r.time_points) ?? '–'} for time − ${num(r.penalty_points) ?? '–'} for penalties`],
    ['Session', r.session || '–'],
  ];
  // the report's own kinds, in its order (the server's)
  const penalties = Object.entries(r.penalties ?? {}).map(([kind, p]) =>
    [eventKind(kind).word, String(p?.count ?? 0), String(num(p?.points_each) ?? '–'), String(num(p?.points) ?? 0)]);
  const timeline = (Array.isArray(r.timeline) ? r.timeline : []).map((e) =>
    [clockWithTenths(e?.task_time_s), whatHappened(e ?? {}), isNote(e) ? '' : String(num(e?.points) ?? '–')]);
  const v = r.versions ?? {};
  const versions = [
    ['Server', v.server || '–'],
    ['Machine model', `${v.model?.name || '–'} · sha256 ${shortHash(v.model?.sha256)}`, v.model?.sha256],
    ['Scenario', `${v.scenario?.name || '–'} · sha256 ${shortHash(v.scenario?.sha256)}`, v.scenario?.sha256],
  ];
  return {
    title: r.trainee || 'No name given',
    outcome: r.outcome || '–',
    task: r.practice === true ? `${r.task || ''} (practice)` : r.task || '',
    facts,
    penalties,
    timeline,
    versions,
  };
}

// ---- page glue ---------------------------------------------------------------------------

function fillList(dl, pairs) {
  const doc = dl.ownerDocument;
  dl.replaceChildren(...pairs.flatMap(([label, text, title]) => {
    const dt = doc.createElement('dt');
    dt.textContent = label;
    const dd = doc.createElement('dd');
    dd.textContent = text;
    if (title) dd.title = title;
    return [dt, dd];
  }));
}

function fillTable(tbody, rows, numeric) {
  const doc = tbody.ownerDocument;
  tbody.replaceChildren(...rows.map((cells) => {
    const tr = doc.createElement('tr');
    cells.forEach((text, i) => {
      const td = doc.createElement('td');
      td.textContent = text;
      if (numeric.includes(i)) td.className = 'num';
      tr.append(td);
    });
    return tr;
  }));
}

function show(doc, view, jsonUrl) {
  doc.getElementById('r-trainee').textContent = view.title;
  const outcome = doc.getElementById('r-outcome');
  outcome.textContent = view.outcome;
  outcome.dataset.state = view.outcome;
  doc.getElementById('r-task').textContent = view.task;
  fillList(doc.getElementById('r-facts'), view.facts);
  fillTable(doc.querySelector('#r-penalties tbody'), view.penalties, [1, 2, 3]);
  fillTable(doc.querySelector('#r-timeline tbody'), view.timeline, [0, 2]);
  doc.getElementById('r-timeline').hidden = view.timeline.length === 0;
  doc.getElementById('r-timeline-empty').hidden = view.timeline.length > 0;
  fillList(doc.getElementById('r-versions'), view.versions);
  doc.getElementById('r-json').href = jsonUrl;
  doc.getElementById('report-body').hidden = false;
  doc.getElementById('report-message').hidden = true;
  doc.title = `clamsim · ${view.title} · ${view.outcome}`;
}

async function startPage(doc) {
  const main = doc.getElementById('report');
  const message = doc.getElementById('report-message');
  const fail = (text) => {
    main.dataset.state = 'failed';
    message.textContent = text;
  };
  const name = new URLSearchParams(location.search).get('name');
  if (!name) return fail('No report named: open one from the list of finished tasks.');
  const url = `api/reports/${encodeURIComponent(name)}`;
  try {
    const res = await fetch(url, { cache: 'no-store' });
    if (res.status === 401) return location.assign(loginUrl(`${location.pathname}${location.search}`));
    if (!res.ok) return fail(`Report ${name}: ${(await res.text()).trim() || `HTTP ${res.status}`}`);
    const view = reportView(await res.json().catch(() => null));
    if (!view) return fail(`${name} is not a clamsim report (see the JSON).`);
    show(doc, view, url);
    main.dataset.state = 'ok';
  } catch (e) {
    fail(`The server is not answering (${e.message ?? e}).`);
  }
}

if (typeof document !== 'undefined' && document.getElementById('report')) startPage(document);
