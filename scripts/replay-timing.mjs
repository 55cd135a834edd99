#!/usr/bin/env node
// How fast the server's debrief replay answers (docs/recording.md "Measured"): opens
// ws://HOST:PORT/ws?replay=NAME on a server that lets this machine replay (loopback without
// accounts), times the hello, the whole run's preparation (replay_timeline) and seeks to
// frames spread over the run (from the seek to the frame's display), and prints them.
//   node --experimental-websocket scripts/replay-timing.mjs PORT NAME [SEEKS]
const [port, name, seeksArg = '20'] = process.argv.slice(2);
if (!port || !name) {
  console.error('usage: node --experimental-websocket scripts/replay-timing.mjs PORT RECORDING [SEEKS]');
  process.exit(2);
}
const seeks = Math.max(1, Number(seeksArg) | 0);
const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?replay=${encodeURIComponent(name)}`);
const t0 = performance.now();
let frames = 0, hello = 0, ready = 0, pending = null;
const seekMs = [];
const done = (code) => { ws.close(); setTimeout(() => process.exit(code), 100); };
setTimeout(() => { console.error('replay-timing: no answer within 120 s'); done(1); }, 120000);

function nextSeek() {
  if (seekMs.length === seeks) {
    seekMs.sort((a, b) => a - b);
    const pct = (p) => seekMs[Math.min(seekMs.length - 1, Math.floor(p * seekMs.length))].toFixed(1);
    console.log(`seek: ${seeks} seeks spread over the run, median ${pct(0.5)} ms, max ${seekMs.at(-1).toFixed(1)} ms`);
    return done(0);
  }
  // spread over the run, never onto a checkpoint exactly: the worst case re-simulates up to 199 frames
  const k = 1 + Math.floor(((seekMs.length + 0.5) / seeks) * (frames - 1)) | 0;
  pending = { k: (k % 200 === 0 ? k - 1 : k), at: performance.now() };
  ws.send(JSON.stringify({ type: 'replay', seek_k: pending.k }));
}

ws.onmessage = (e) => {
  const m = JSON.parse(e.data);
  if (m.type === 'hello') {
    hello = performance.now() - t0;
    frames = m.replay.frames;
  } else if (m.type === 'replay_timeline') {
    ready = performance.now() - t0;
    const runS = frames * 0.05;
    console.log(`recording: ${name}, ${frames} frames (${runS.toFixed(1)} s of session)`);
    console.log(`hello after ${hello.toFixed(0)} ms; prepared (the whole run re-simulated once) after ${ready.toFixed(0)} ms: ${(runS / (ready / 1000)).toFixed(0)}x real time; ${m.events.length} events`);
    setTimeout(nextSeek, 200);
  } else if (m.type === 'display' && pending && m.seq === pending.k - 1) {
    seekMs.push(performance.now() - pending.at);
    pending = null;
    setTimeout(nextSeek, 20);
  } else if (m.type === 'error') {
    console.error(`replay-timing: ${m.message}`);
  }
};
ws.onclose = (e) => { if (!ready) { console.error(`replay-timing: closed: ${e.reason}`); process.exit(1); } };
