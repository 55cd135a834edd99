import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Connection, backoffDelay, describeClose } from '../js/connection.js';

test('backoff doubles from 250 ms and stops at 5 s', () => {
  const noJitter = { random: () => 1 };
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 20].map((n) => backoffDelay(n, noJitter)),
    [250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);
  const low = backoffDelay(10, { random: () => 0 });
  assert.ok(low >= 4000 && low <= 5000);
});

test('close codes are said plainly', () => {
  assert.match(describeClose(1013, ''), /not taking sessions now/);
  assert.match(describeClose(1013, 'server is draining'), /draining/);
  assert.match(describeClose(1008, 'flooding'), /policy: flooding/);
  assert.equal(describeClose(1006, ''), '');
});

// A scripted world: fake sockets and a fake clock.
function harness() {
  const sockets = [];
  const timers = [];
  let now = 0;
  class FakeSocket {
    constructor(url) {
      this.url = url;
      this.readyState = 0;
      this.sent = [];
      sockets.push(this);
    }
    send(t) { this.sent.push(t); }
    close() { this.readyState = 3; }
    open() { this.readyState = 1; this.onopen?.(); }
    message(t) { this.onmessage?.({ data: t }); }
    drop(code = 1006, reason = '') { this.readyState = 3; this.onclose?.({ code, reason }); }
  }
  const states = [];
  const messages = [];
  let opens = 0;
  const conn = new Connection({
    url: 'ws://127.0.0.1:1/ws', WebSocketImpl: FakeSocket,
    onState: (s) => states.push(s), onMessage: (m) => messages.push(m), onOpen: () => { opens += 1; },
    setTimer: (f, ms) => { const t = { f, at: now + ms, live: true }; timers.push(t); return t; },
    clearTimer: (t) => { if (t) t.live = false; },
    now: () => now, backoff: (n) => Math.min(5000, 250 * 2 ** n),
  });
  const advance = (ms) => {
    const end = now + ms;
    for (;;) {
      const due = timers.filter((t) => t.live && t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      now = due.at;
      due.live = false;
      due.f();
    }
    now = end;
  };
  return { conn, sockets, states, messages, advance, get opens() { return opens; }, last: () => states.at(-1) };
}

test('connects, passes messages, sends only while open', () => {
  const h = harness();
  h.conn.start();
  assert.equal(h.last().status, 'connecting');
  assert.equal(h.conn.send('x'), false);
  h.sockets[0].open();
  assert.equal(h.last().status, 'connected');
  assert.equal(h.opens, 1);
  h.sockets[0].message('{"type":"hello"}');
  assert.deepEqual(h.messages, ['{"type":"hello"}']);
  assert.equal(h.conn.send('y'), true);
  assert.deepEqual(h.sockets[0].sent, ['y']);
  h.conn.stop();
});

test('unreachable server: retries with growing delays, capped, and says so', () => {
  const h = harness();
  h.conn.start();
  const delays = [];
  for (let i = 0; i < 7; i++) {
    h.sockets.at(-1).drop();
    const s = h.last();
    assert.equal(s.status, 'unreachable');
    delays.push(s.retryInMs);
    h.advance(s.retryInMs);
  }
  assert.deepEqual(delays, [250, 500, 1000, 2000, 4000, 5000, 5000]);
  assert.equal(h.sockets.length, 8);
  h.conn.stop();
});

test('a drop after a session reconnects quickly and starts a fresh session', () => {
  const h = harness();
  h.conn.start();
  h.sockets[0].open();
  h.sockets[0].drop(1001, 'shutting down');
  assert.equal(h.last().status, 'reconnecting');
  assert.match(h.last().reason, /going away/);
  h.advance(h.last().retryInMs);
  assert.equal(h.sockets.length, 2);
  h.sockets[1].open();
  assert.equal(h.opens, 2);
  // the failure count starts again after a good connection
  h.sockets[1].drop();
  assert.equal(h.last().retryInMs, 250);
  h.conn.stop();
});

test('server full (1013) is reported as such', () => {
  const h = harness();
  h.conn.start();
  h.sockets[0].open();
  h.sockets[0].drop(1013, 'session limit');
  assert.equal(h.last().status, 'full');
  h.conn.stop();
});

test('a silent socket is closed after staleMs and reopened', () => {
  const h = harness();
  h.conn.start();
  h.sockets[0].open();
  h.advance(3000);
  h.sockets[0].message('{}');
  h.advance(4000);
  assert.equal(h.sockets.length, 1);   // data 4 s ago: still fine
  h.advance(1800);  // the watchdog looks every staleMs / 4
  assert.equal(h.last().status, 'reconnecting');
  assert.match(h.last().reason, /no data/);
  h.advance(h.last().retryInMs);
  assert.equal(h.sockets.length, 2);
  h.conn.stop();
});

test('stop cancels the pending retry', () => {
  const h = harness();
  h.conn.start();
  h.sockets[0].drop();
  h.conn.stop();
  h.advance(10000);
  assert.equal(h.sockets.length, 1);
  assert.equal(h.last().status, 'closed');
});
