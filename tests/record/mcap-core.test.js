// An independent reader: @mcap/core (the MCAP project's own TypeScript library) reads a
// recording the real server wrote for a real WebSocket session: its channels, schemas,
// message counts and metadata, through the summary and index (McapIndexedReader) and
// front to back (McapStreamReader). The server's chunks are zstd-compressed; fzstd, an
// independent decompressor, opens them for @mcap/core. Needs node --experimental-websocket
// (node 20).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { McapIndexedReader, McapStreamReader } from '@mcap/core';
import { decompress } from 'fzstd';
import { ServerProcess, freePort, waitFor, sleep } from '../e2e/harness.js';

const skip = !process.env.CLAMSIM_SERVER ? 'CLAMSIM_SERVER is not set' : false;

// @mcap/core leaves decompression to its caller: zstd by fzstd, into the chunk's declared size
const decompressHandlers = {
  zstd: (buffer, size) => decompress(buffer, new Uint8Array(Number(size))),
};

// The file as @mcap/core's readable.
function readable(bytes) {
  return {
    size: async () => BigInt(bytes.length),
    read: async (offset, length) => bytes.subarray(Number(offset), Number(offset + length)),
  };
}

test('@mcap/core reads a session the server recorded', { skip, timeout: 120000 }, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'clamsim-rec-'));
  const server = new ServerProcess({
    httpPort: await freePort(), corbaPort: await freePort(), logName: 'record-server.log',
    extraArgs: ['--record-dir', dir, '--record-frame-every', '10'],
  });
  try {
    await server.start();
    const ws = new WebSocket(`ws://127.0.0.1:${server.httpPort}/ws`);
    let displays = 0;
    ws.onmessage = (m) => { if (JSON.parse(m.data).type === 'display') displays += 1; };
    await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; });
    ws.send(JSON.stringify({ type: 'trainee', name: 'Ada Lovelace' }));
    for (let i = 0; i < 20; i += 1) {
      ws.send(JSON.stringify({ type: 'control', volts: [1.5, 0, 0, i % 2 ? 1 : -1, 0] }));
      await sleep(100);
    }
    await waitFor('40 frames', () => displays >= 40, { timeoutMs: 30000 });
    ws.close();
    // the session ends with its connection; the recording is closed with its summary
    const file = () => readdirSync(dir).find((f) => f.endsWith('.mcap'));
    await waitFor('the recording', () => file() !== undefined, { timeoutMs: 10000 });
    let bytes;
    await waitFor('the recording to be finished', () => {
      bytes = new Uint8Array(readFileSync(path.join(dir, file())));
      return bytes.length > 16 && Buffer.from(bytes.subarray(bytes.length - 8)).equals(Buffer.from(bytes.subarray(0, 8)));
    }, { timeoutMs: 10000 });

    const reader = await McapIndexedReader.Initialize({ readable: readable(bytes), decompressHandlers });
    assert.ok(reader.chunkIndexes.length >= 1);
    let compressed = 0n, uncompressed = 0n;
    for (const c of reader.chunkIndexes) {
      assert.equal(c.compression, 'zstd', `chunk at byte ${c.chunkStartOffset}`);
      compressed += c.compressedSize;
      uncompressed += c.uncompressedSize;
    }
    assert.ok(compressed * 2n < uncompressed, `chunks of ${uncompressed} bytes compressed to ${compressed}`);
    const topics = [...reader.channelsById.values()].map((c) => c.topic).sort();
    assert.deepEqual(topics, ['/events', '/frames', '/inputs', '/score']);
    for (const c of reader.channelsById.values()) {
      assert.equal(c.messageEncoding, 'json');
      const schema = reader.schemasById.get(c.schemaId);
      assert.equal(schema.encoding, 'jsonschema');
      assert.equal(typeof JSON.parse(new TextDecoder().decode(schema.data)).properties, 'object');
    }
    const counts = {};
    const inputs = [];
    for await (const m of reader.readMessages()) {
      const topic = reader.channelsById.get(m.channelId).topic;
      counts[topic] = (counts[topic] ?? 0) + 1;
      const j = JSON.parse(new TextDecoder().decode(m.data));
      if (topic === '/inputs') inputs.push(j);
    }
    const stats = reader.statistics;
    const frames = [...stats.channelMessageCounts].find(([id]) => reader.channelsById.get(id).topic === '/frames')[1];
    assert.equal(BigInt(counts['/frames']), frames, 'the summary counts what is there');
    assert.ok(counts['/frames'] >= 4, `every 10th of at least 40 frames: ${counts['/frames']}`);
    assert.ok(inputs.some((j) => j.kind === 'control' && j.volts[0] === 1.5), 'the stick recorded');
    assert.ok(inputs.some((j) => j.kind === 'trainee' && j.name === 'Ada Lovelace'));

    const meta = {};
    for await (const m of reader.readMetadata()) Object.assign(meta, Object.fromEntries(m.metadata));
    assert.equal(meta.model, 't250');
    assert.match(meta.model_sha256, /^[0-9a-f]{64}$/);
    assert.equal(meta.trainee, 'Ada Lovelace');
    assert.match(meta.start_utc, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    // front to back, as after a crash: every record parses, CRCs checked by the library
    const stream = new McapStreamReader({ validateCrcs: true, decompressHandlers });
    stream.append(bytes);
    let messages = 0;
    for (let r; (r = stream.nextRecord()); ) if (r.type === 'Message') messages += 1;
    assert.ok(stream.done());
    assert.equal(messages, Object.values(counts).reduce((a, b) => a + b, 0));
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
