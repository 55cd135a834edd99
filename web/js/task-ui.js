// On the page: the warning badges over the view, the score panel and the end-of-task
// report with its "Restart task" button. Content comes from task.js; this file only
// builds elements once and changes their text, classes and widths.

import { scoreView, reportView } from './task.js';
import { el, setText } from './dom.js';

const ICONS = { danger: '⚠', warn: '⚠', ok: '✔', info: '≈' };

// onReplay (a trainee's live page only): the report's "Replay my run"; it is handed a
// show(text, {level, href}) that writes its outcome under the buttons.
export function createTaskUi({ warnings, score, report, onRestart, onReplay = null }) {
  const badges = new Map();
  const panel = buildScorePanel(score, onRestart);
  const hideReport = () => {
    report.hidden = true;
  };
  const ui = { report, onRestart, onReplay, hideReport };
  return {
    warnings: (list) => showWarnings(warnings, badges, list),
    score: (s, task) => showScore(panel, s, task),
    report: (rep, lastScore, levels) => showReport(ui, rep, lastScore, levels),
    hideReport,
    get reportOpen() { return !report.hidden; },
  };
}

// ---- warnings: one badge per active warning, in a fixed order ----
function showWarnings(warnings, badges, list) {
  const ids = new Set(list.map((w) => w.id));
  for (const [id, b] of badges) {
    if (!ids.has(id)) {
      b.remove();
      badges.delete(id);
    }
  }
  for (const w of list) {
    let b = badges.get(w.id);
    if (!b) {
      b = el('div', { class: 'warning', role: 'status', 'data-id': w.id },
        el('span', { class: 'warning-icon', 'aria-hidden': 'true' }), el('span', { class: 'warning-text' }));
      badges.set(w.id, b);
    }
    showDetail(b, w);
    b.dataset.level = w.level;
    if (w.state) b.dataset.state = w.state;
    else delete b.dataset.state;
    if ((b.title || '') !== (w.title ?? '')) b.title = w.title ?? '';
    setText(b.querySelector('.warning-icon'), ICONS[w.level] ?? '•');
    setText(b.querySelector('.warning-text'), w.text);
    warnings.append(b);  // keeps the order of `list`
  }
}

// an explanation (the advice of web/data/advice.json): its lines under the title, rebuilt
// only when the event it explains changes
function showDetail(b, w) {
  const detailKey = w.detail ? `${w.state ?? ''}/${w.text}` : '';
  if ((b.dataset.detail ?? '') === detailKey) return;
  b.querySelector('.warning-detail')?.remove();
  if (w.detail) {
    b.append(el('dl', { class: 'warning-detail' },
      ...w.detail.flatMap(([head, text]) => [el('dt', {}, head), el('dd', {}, text)])));
  }
  b.dataset.detail = detailKey;
}

// ---- score panel: built once, its texts and widths changed by showScore ----
function buildScorePanel(score, onRestart) {
  const p = {
    score,
    title: el('div', { class: 'score-title' }),
    status: el('div', { class: 'score-status' }),
    points: el('div', { class: 'score-points', id: 'score-points' }),
    pointsDetail: el('div', { class: 'score-detail' }),
    timeFill: el('div', { class: 'time-fill' }),
    optimumTick: el('div', { class: 'time-optimum', title: 'optimum time' }),
    timeText: el('div', { class: 'score-time', id: 'score-time' }),
    readyHint: el('div', { class: 'score-ready', id: 'score-ready', role: 'status' }),
    deliveredFill: el('div', { class: 'delivered-fill' }),
    deliveredText: el('span', { id: 'score-delivered' }),
    penaltyCells: {},
    penaltyList: el('ul', { class: 'score-penalties' }),
    practiceNow: false,   // the attempt under way, as the last score said
  };
  const restartButton = el('button', { type: 'button', id: 'score-restart', title: 'Restart the task (R)', onclick: () => onRestart('button') }, 'Restart task');
  // the other kind of attempt, at any time: practice without the clock, or back to the timed task
  p.otherKindButton = el('button', { type: 'button', id: 'score-other-kind',
    onclick: () => onRestart('button', !p.practiceNow) }, 'Practise without the clock');
  score.replaceChildren(
    el('div', { class: 'score-head' }, p.title, p.status),
    el('div', { class: 'score-main' },
      el('div', { class: 'score-points-box' }, p.points, el('div', { class: 'score-unit' }, 'points')),
      el('div', { class: 'score-time-box' }, p.timeText,
        el('div', { class: 'time-bar', role: 'img', 'aria-label': 'elapsed time against the optimum and the limit' }, p.timeFill, p.optimumTick),
        el('div', { class: 'time-legend' }, el('span', { class: 'legend-optimum' }), el('span', { class: 'legend-limit' })))),
    p.readyHint,
    p.pointsDetail,
    el('div', { class: 'score-delivered' }, el('span', { class: 'label' }, 'Delivered '), p.deliveredText,
      el('div', { class: 'delivered-bar' }, p.deliveredFill)),
    p.penaltyList,
    el('div', { class: 'score-actions' }, restartButton, el('span', { class: 'hint' }, 'or R'), p.otherKindButton));
  p.legendOptimum = score.querySelector('.legend-optimum');
  p.legendLimit = score.querySelector('.legend-limit');
  return p;
}

function showScore(p, s, task) {
  const v = scoreView(s, task);
  const { score } = p;
  score.hidden = !v.visible;
  if (!v.visible) return v;
  score.dataset.phase = v.phase;
  score.dataset.status = v.status;
  score.dataset.practice = String(v.practice);
  setText(p.readyHint, v.readyHint);
  p.readyHint.hidden = !v.readyHint;
  setText(p.title, v.practice ? `Practice: ${v.title}` : v.title);
  p.practiceNow = v.practice;
  setText(p.otherKindButton, v.practice ? 'Start the timed task' : 'Practise without the clock');
  p.otherKindButton.title = v.practice ? 'Restart as the timed task' : 'Restart as a practice attempt: scored, no time limit';
  setText(p.status, v.statusText);
  setText(p.points, v.points);
  setText(p.pointsDetail, `time ${v.timePoints} − penalties ${v.penaltyPoints}`);
  setText(p.timeText, `${v.elapsed}`);
  p.timeFill.style.width = `${(v.fraction * 100).toFixed(1)}%`;
  const opt = `${(v.optimumFraction * 100).toFixed(1)}%`;
  p.optimumTick.style.left = opt;
  p.optimumTick.parentElement.style.setProperty('--opt', opt);
  setText(p.legendOptimum, `optimum ${v.optimum}`);
  setText(p.legendLimit, `limit ${v.limit}`);
  setText(p.deliveredText, v.delivered);
  p.deliveredFill.style.width = `${(v.deliveredFraction * 100).toFixed(1)}%`;
  showPenalties(p, v.penalties);
  return v;
}

// one line per kind of penalty, added the first time it is listed
function showPenalties(p, penalties) {
  for (const pen of penalties) {
    let cell = p.penaltyCells[pen.key];
    if (!cell) {
      const count = el('span', { class: 'count' });
      cell = { li: el('li', { 'data-key': pen.key }, count, el('span', { class: 'label' }, pen.label)), count };
      p.penaltyCells[pen.key] = cell;
      p.penaltyList.append(cell.li);
    }
    setText(cell.count, String(pen.count));
    cell.li.classList.toggle('nonzero', pen.count > 0);
  }
}

// ---- report overlay ----
// levels: hello.machine.load_moment, named in the load moment entries
function showReport(ui, rep, lastScore, levels = null) {
  const v = reportView(rep, lastScore, levels);
  const actions = reportActions(ui, v);
  ui.report.replaceChildren(el('div', { class: 'report-card', role: 'dialog', 'aria-labelledby': 'report-outcome' },
    el('div', { class: 'report-title' }, v.practice ? `Practice (no time limit): ${v.title}` : v.title),
    el('h2', { id: 'report-outcome', 'data-level': v.level }, v.outcome),
    reportSummary(v),
    el('h3', {}, 'Penalties'),
    el('table', { class: 'report-penalties' }, el('thead', {}, el('tr', {}, el('th', {}, ''), el('th', { class: 'num' }, 'count'), el('th', { class: 'num' }, 'points'))),
      el('tbody', {}, ...penaltyRows(v))),
    el('h3', {}, 'Timeline'),
    reportTimeline(v),
    v.raw ? el('pre', { class: 'report-raw' }, v.raw) : '',
    actions.row,
    actions.replayNote));
  ui.report.hidden = false;
  actions.restart.focus({ preventScroll: true });
  return v;
}

function reportSummary(v) {
  return el('table', { class: 'report-summary' },
    v.trainee ? el('tr', { class: 'report-trainee' }, el('th', {}, 'Trainee'), el('td', { colspan: '2', id: 'report-trainee' }, v.trainee)) : '',
    el('tr', {}, el('th', {}, 'Time'), el('td', { class: 'num' }, v.time), el('td', { class: 'hint' }, `optimum ${v.optimum}, limit ${v.limit}`)),
    el('tr', {}, el('th', {}, 'Points'), el('td', { class: 'num report-points' }, v.points), el('td', { class: 'hint' }, `time ${v.timePoints} − penalties ${v.penaltyPoints}`)),
    el('tr', {}, el('th', {}, 'Delivered'), el('td', { class: 'num' }, v.delivered),
      el('td', { class: 'report-loads' }, ...v.loads.map((l) => el('span', { class: l.delivered ? 'load-done' : 'load-left' },
        `${l.delivered ? '✔' : '✘'} ${l.name}`)))));
}

function penaltyRows(v) {
  if (!v.penalties.length) return [el('tr', {}, el('td', { colspan: '3', class: 'hint' }, 'No penalties.'))];
  return v.penalties.map((p) => el('tr', { class: p.count > 0 ? 'nonzero' : '' }, el('th', {}, p.label),
    el('td', { class: 'num' }, String(p.count)), el('td', { class: 'num' }, p.pointsText)));
}

function reportTimeline(v) {
  if (!v.timeline.length) return el('p', { class: 'hint' }, 'No events recorded.');
  return el('ol', { class: 'report-timeline', tabindex: '0', 'aria-label': 'Timeline' }, ...v.timeline.map((e) => el('li', {},
    el('span', { class: 'tl-time' }, e.time), el('span', { class: 'tl-text' }, e.text), el('span', { class: 'tl-points' }, e.points))));
}

// the report's buttons (restart, practice again, replay, close) and the replay's note
function reportActions(ui, v) {
  const { onRestart, onReplay } = ui;
  // after practice the first choice is the timed task; practice again stays offered
  const restart = el('button', { type: 'button', id: 'report-restart', class: 'primary', onclick: () => onRestart('report', false) },
    v.practice ? 'Start the timed task' : 'Restart task');
  const again = v.practice
    ? el('button', { type: 'button', id: 'report-practice', onclick: () => onRestart('report', true) }, 'Practice again') : '';
  const close = el('button', { type: 'button', onclick: () => ui.hideReport() }, 'Close');
  const replayNote = el('p', { class: 'report-replay-note', id: 'report-replay-note', role: 'status', hidden: '' });
  const showReplay = (text, { level = 'info', href = null } = {}) => {
    replayNote.hidden = false;
    replayNote.dataset.level = level;
    replayNote.replaceChildren(text, ...(href ? [' ', el('a', { href, target: '_blank', rel: 'noopener' }, 'Open it here')] : []));
  };
  const replay = onReplay ? el('button', { type: 'button', id: 'report-replay', title: 'Watch this run again, with its events and plots',
    onclick: () => onReplay(showReplay) }, 'Replay my run') : '';
  const row = el('div', { class: 'report-actions' }, restart, again, replay, close, el('span', { class: 'hint' }, 'R restarts'));
  return { row, restart, replayNote };
}
