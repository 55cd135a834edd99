#!/usr/bin/env node
// The size of a session recording by channel, and what it comes to per hour of session
// at a given /frames sampling (docs/recording.md "Measured"):
//   node scripts/recording-size.mjs FILE [FRAME_EVERY]
// Read with @mcap/core, an independent reader (zstd chunks opened with fzstd). The channels'
// figures are before compression; the file's, on disk.
import { readFileSync } from 'node:fs';
import { McapIndexedReader } from '@mcap/core';
import { decompress } from 'fzstd';

const [file, every = '20'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/recording-size.mjs FILE [FRAME_EVERY]');
  process.exit(2);
}
const bytes = new Uint8Array(readFileSync(file));
const reader = await McapIndexedReader.Initialize({
  readable: { size: async () => BigInt(bytes.length), read: async (o, n) => bytes.subarray(Number(o), Number(o + n)) },
  decompressHandlers: { zstd: (buf, size) => decompress(buf, new Uint8Array(Number(size))) },
});
const meta = {};
for await (const m of reader.readMetadata()) Object.assign(meta, Object.fromEntries(m.metadata));
const period = Number(meta.frame_period_s);
const recordedEvery = Number(meta.frame_every);
const perTopic = {};
let lastK = 0;
// a message costs its data plus the Message record (31 bytes) and its index entry (16),
// before compression
for await (const m of reader.readMessages()) {
  const topic = reader.channelsById.get(m.channelId).topic;
  const t = (perTopic[topic] ??= { messages: 0, bytes: 0 });
  t.messages += 1;
  t.bytes += m.data.length + 31 + 16;
  lastK = Math.max(lastK, JSON.parse(new TextDecoder().decode(m.data)).k);
}
const hours = (lastK * period) / 3600;
let perHour = 0;
for (const [topic, t] of Object.entries(perTopic)) {
  const scale = topic === '/frames' ? recordedEvery / Number(every) : 1;
  const mbh = (t.bytes * scale) / hours / 1e6;
  perHour += mbh;
  console.log(`${topic}: ${t.messages} messages, ${t.bytes} bytes; ${mbh.toFixed(2)} MB/h at /frames every ${every}`);
}
let compressed = 0, uncompressed = 0;
const compressions = new Set();
for (const c of reader.chunkIndexes) {
  compressed += Number(c.compressedSize);
  uncompressed += Number(c.uncompressedSize);
  compressions.add(c.compression || 'none');
}
const ratio = uncompressed > 0 ? compressed / uncompressed : 1;
const fileMbh = bytes.length / hours / 1e6;
console.log(`file ${bytes.length} bytes for ${(lastK * period).toFixed(1)} s of session (frames every ${recordedEvery})`);
console.log(`chunks (${[...compressions].join(', ')}): ${uncompressed} bytes of records in ${compressed} bytes (${(100 * ratio).toFixed(1)} %)`);
console.log(`about ${perHour.toFixed(2)} MB per session hour with /frames every ${every}, before compression`);
// at the sampling recorded the file's own size says it; at another, the channels' sum
// scaled by this file's compression ratio (an estimate: frames may compress differently)
if (recordedEvery === Number(every)) {
  console.log(`about ${fileMbh.toFixed(2)} MB per session hour on disk (the file's size)`);
} else {
  console.log(`about ${(perHour * ratio).toFixed(2)} MB per session hour on disk (estimated at this file's ratio)`);
}
