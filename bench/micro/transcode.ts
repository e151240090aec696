/**
 * Micro-benchmark: one cross-format stream transcode (OpenAI chat SSE upstream -> messages SSE client), the
 * hot path of a messages client on an OpenAI-format upstream, and the same stream through the passthrough tap of
 * an OpenAI-format client (src/providers/openai/stream-tap.ts: one read per event, then the whole stream in one
 * read), with warm-up. Prints microseconds per stream.
 */
import { performance } from 'node:perf_hooks';
import { messagesFormat } from '../../src/formats/messages/index.js';
import { openaiAdapter } from '../../src/providers/openai/adapter.js';
import { OpenAIStreamTap } from '../../src/providers/openai/stream-tap.js';

const TOKENS = Number(process.env.TOKENS ?? 16);
const chunk = (delta: string, finish: string | null = null) =>
  `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"delta":${delta},"finish_reason":${finish ? `"${finish}"` : 'null'}}],"usage":null}\n\n`;
const parts = [chunk('{"role":"assistant","content":""}')];
for (let i = 0; i < TOKENS; i++) parts.push(chunk(`{"content":" word${i}"}`));
parts.push(chunk('{}', 'stop'));
parts.push('data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":20,"completion_tokens":16,"total_tokens":36}}\n\n');
parts.push('data: [DONE]\n\n');
const upstream = parts.map((p) => Buffer.from(p));

function once(): number {
  const dec = openaiAdapter.streamDecoder();
  const enc = messagesFormat.streamEncoder({ model: 'gpt-4o-mini', requestId: 'r', created: 1, streamUsage: false });
  let bytes = 0;
  for (const c of upstream) for (const ev of dec.push(c)) bytes += enc.push(ev).length;
  for (const ev of dec.end()) bytes += enc.push(ev).length;
  return bytes + enc.end().length;
}

for (let i = 0; i < 5_000; i++) once(); // warm-up
const n = 20_000;
const t0 = performance.now();
let sink = 0;
for (let i = 0; i < n; i++) sink += once();
const us = ((performance.now() - t0) * 1000) / n;
process.stdout.write(`transcode openai-sse -> messages-sse, ${TOKENS} tokens: ${us.toFixed(1)} us/stream (${(us / (TOKENS + 4)).toFixed(2)} us/event) [${sink > 0 ? 'ok' : ''}]\n`);

const whole = Buffer.concat(upstream);
/** The passthrough tap over the stream, one read per event or the whole stream in one read; returns bytes forwarded. */
function tapOnce(reads: readonly Buffer[]): number {
  const tap = new OpenAIStreamTap(false);
  let bytes = 0;
  for (const c of reads) bytes += tap.feed(c).length;
  return bytes + tap.flush().length + tap.end.length;
}
for (const [name, reads] of [
  ['one read per event', upstream],
  ['the whole stream in one read', [whole]],
] as const) {
  for (let i = 0; i < 5_000; i++) tapOnce(reads);
  const t1 = performance.now();
  let out = 0;
  for (let i = 0; i < n; i++) out += tapOnce(reads);
  const tapUs = ((performance.now() - t1) * 1000) / n;
  process.stdout.write(`passthrough tap (OpenAI SSE, usage chunk dropped), ${TOKENS} tokens, ${name}: ${tapUs.toFixed(1)} us/stream [${out > 0 ? 'ok' : ''}]\n`);
}
