// When the page sends the operator's volts: at once when they change (polled at every
// animation frame), no more than one such message per minGapMs and within a share of the
// server's message allowance, besides the steady heartbeat pages/controls.js keeps (20 Hz). Pure: the
// caller polls, sends and tells it what went out.

export const CONTROL_SEND = Object.freeze({
  thresholdV: 0.05,   // a channel moving by more than this is a change (1 % of full stick)
  minGapMs: 16,       // at most one change message per display frame at 60 Hz
  share: 0.5,         // of hello.limits.max_messages_per_s, for all the controls together
});

export function makeControlSender({ thresholdV = CONTROL_SEND.thresholdV, minGapMs = CONTROL_SEND.minGapMs,
  share = CONTROL_SEND.share, maxPerS = 200 } = {}) {
  let last = null;              // the volts last sent
  let lastChangeAt = -Infinity;
  const stamps = [];            // when each control of the last second went out
  let budget = Math.max(1, Math.floor(maxPerS * share));

  const trim = (now) => {
    while (stamps.length && stamps[0] <= now - 1000) stamps.shift();
  };

  return {
    // a new connection: nothing sent yet; maxPerS from its hello.limits (null: unchanged)
    reset(limit = null) {
      last = null;
      lastChangeAt = -Infinity;
      stamps.length = 0;
      if (limit > 0) budget = Math.max(1, Math.floor(limit * share));
    },
    get budgetPerS() { return budget; },
    // the volts differ from the last sent: a channel moved by more than the threshold, or
    // went to or left zero (a released key is news however small its step)
    changed(volts) {
      if (!last) return true;
      return volts.some((v, i) => Math.abs(v - last[i]) > thresholdV || ((v === 0) !== (last[i] === 0)));
    },
    // send these volts now, as a change? (the heartbeat sends regardless)
    shouldSend(volts, now) {
      if (!this.changed(volts) || now - lastChangeAt < minGapMs) return false;
      trim(now);
      return stamps.length < budget;
    },
    // a control went out at `now`; change: it was sent because the volts changed
    sent(volts, now, change = false) {
      last = volts.slice();
      stamps.push(now);
      if (change) lastChangeAt = now;
    },
    // controls sent in the second before now
    perSecond(now) {
      trim(now);
      return stamps.length;
    },
  };
}
