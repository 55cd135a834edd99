// One WebSocket to the server, reopened with exponential backoff. Each open socket is a
// fresh session on the server (one connection = one session), so the owner resets on
// `open`. Transport only: messages go out as text and come in as text.
// WebSocket and timers are injectable so node can test it without a browser.

export function backoffDelay(attempt, { baseMs = 250, capMs = 5000, random = Math.random } = {}) {
  const exp = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt));
  return Math.round(exp * (0.8 + 0.2 * random()));  // a little jitter so tabs don't stampede
}

// What the page says about a close, by WebSocket close code (docs/websocket-protocol.md).
export function describeClose(code, reason) {
  const why = reason ? `: ${reason}` : '';
  switch (code) {
    case 1008: return `refused by the server (policy${why})`;
    case 1009: return `closed by the server (message too big${why})`;
    case 1003: return `closed by the server (unsupported data${why})`;
    case 1013: return `not taking sessions now${why}`;
    case 1001: return `server going away${why}`;
    default: return reason ? `closed${why}` : '';
  }
}

export class Connection {
  constructor({ url, WebSocketImpl = globalThis.WebSocket, onMessage = () => {}, onState = () => {},
    onOpen = () => {}, staleMs = 5000, setTimer = (f, ms) => setTimeout(f, ms), clearTimer = (t) => clearTimeout(t),
    now = () => Date.now(), backoff = backoffDelay }) {
    Object.assign(this, { url, WebSocketImpl, onMessage, onState, onOpen, staleMs, setTimer,
      clearTimer, now, backoff });
    this.ws = null;
    this.attempt = 0;       // failed attempts in a row
    this.timer = null;
    this.watchdog = null;
    this.stopped = true;
    this.lastMessageAt = 0;
    this.status = 'idle';
  }

  start() {
    this.stopped = false;
    this.open();
  }

  stop() {
    this.stopped = true;
    this.clearTimer(this.timer);
    this.clearTimer(this.watchdog);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      try { ws.close(1000, 'client stopped'); } catch { /* already closed */ }
    }
    this.report('closed', {});
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === 1;
  }

  send(text) {
    if (!this.isOpen) return false;
    try {
      this.ws.send(text);
      return true;
    } catch {
      return false;
    }
  }

  report(status, extra) {
    this.status = status;
    this.onState({ status, url: this.url, attempt: this.attempt, ...extra });
  }

  open() {
    if (this.stopped) return;
    this.report('connecting', {});
    let ws;
    try {
      ws = new this.WebSocketImpl(this.url);
    } catch (e) {
      this.scheduleRetry(false, { reason: String(e?.message ?? e) });
      return;
    }
    this.ws = ws;
    let opened = false;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      opened = true;
      this.attempt = 0;
      this.lastMessageAt = this.now();
      this.armWatchdog(ws);
      this.report('connected', {});
      this.onOpen();
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;
      this.lastMessageAt = this.now();
      this.onMessage(ev.data);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.clearTimer(this.watchdog);
      this.scheduleRetry(opened, { code: ev.code, reason: describeClose(ev.code, ev.reason),
        rawReason: ev.reason });
    };
    ws.onerror = () => { /* a close event follows; it carries what we can know */ };
  }

  // A socket that says nothing for staleMs is dead even if TCP has not noticed.
  armWatchdog(ws) {
    this.clearTimer(this.watchdog);
    this.watchdog = this.setTimer(() => {
      if (this.ws !== ws) return;
      if (this.now() - this.lastMessageAt >= this.staleMs) {
        this.ws = null;
        try { ws.close(4000, 'no data'); } catch { /* closing anyway */ }
        this.scheduleRetry(true, { reason: `no data for ${Math.round(this.staleMs / 1000)} s` });
      } else {
        this.armWatchdog(ws);
      }
    }, Math.max(250, this.staleMs / 4));
  }

  scheduleRetry(wasOpen, info) {
    if (this.stopped) return;
    const delay = this.backoff(this.attempt);
    this.attempt += 1;
    const status = info.code === 1013 ? 'full' : wasOpen ? 'reconnecting' : 'unreachable';
    this.report(status, { retryInMs: delay, retryAt: this.now() + delay, ...info });
    this.clearTimer(this.timer);
    this.timer = this.setTimer(() => this.open(), delay);
  }
}
