// The latency probe: how long a change of the controls takes to reach a frame and the
// screen. The page numbers every `control` it sends on a connection (1, 2, ...; the hello
// starts again at 0); each display's `control_seq` says how many the server had when it
// took that frame's inputs. A change sent as control k is in the first frame with
// control_seq >= k: its arrival minus k's send time is control->frame, and the first
// drawing of that frame minus the send time is control->draw. Times in ms.

export const LATENCY = Object.freeze({ keep: 500, pending: 200 });

// nearest-rank percentile of a list (not sorted in place); NaN when empty
export function percentile(list, p) {
  if (!list.length) return NaN;
  const s = list.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export function makeLatencyProbe({ keep = LATENCY.keep, maxPending = LATENCY.pending } = {}) {
  let pending = [];        // {count, sentAt} sent, not yet in a frame
  let arrived = [];        // {sentAt} in a frame that has not been drawn yet
  const toFrame = [], toDraw = [];
  const push = (list, x) => {
    list.push(x);
    if (list.length > keep) list.shift();
  };
  return {
    // a new connection (hello): the count starts again; what was in flight is lost
    reset() {
      pending = [];
      arrived = [];
    },
    // forget the samples too
    clear() {
      this.reset();
      toFrame.length = 0;
      toDraw.length = 0;
    },
    // control number `count` of this connection went out at sentAt, sent because it changed
    sent(count, sentAt) {
      pending.push({ count, sentAt });
      if (pending.length > maxPending) pending.shift();
    },
    // a frame arrived at `at` holding the first controlSeq controls; returns how many
    // changes it answered
    frame(controlSeq, at) {
      if (!Number.isInteger(controlSeq)) return 0;
      let n = 0;
      while (pending.length && pending[0].count <= controlSeq) {
        const p = pending.shift();
        push(toFrame, at - p.sentAt);
        arrived.push(p);
        n += 1;
      }
      return n;
    },
    // the frames that arrived so far are on the screen now
    drawn(at) {
      for (const p of arrived) push(toDraw, at - p.sentAt);
      arrived = [];
    },
    get waiting() { return pending.length + arrived.length; },
    // {count, toFrame: {p50, p99}, toDraw: {p50, p99}} in ms over the kept samples
    summary() {
      return {
        count: toDraw.length,
        toFrame: { n: toFrame.length, p50: percentile(toFrame, 50), p99: percentile(toFrame, 99) },
        toDraw: { n: toDraw.length, p50: percentile(toDraw, 50), p99: percentile(toDraw, 99) },
      };
    },
  };
}
