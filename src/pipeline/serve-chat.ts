import { OpenAIStreamTap } from '../providers/openai/stream-tap.js';
import { lastUsageObject } from '../providers/usage-tap.js';
import type { ResponseSink } from '../server/types.js';
import type { UpstreamResponse } from '../upstream/client.js';
import { spliceBody } from './json-bytes.js';
import type { Candidate } from './chain.js';
import { commonHeaders } from './response-headers.js';
import { price, SSE_HEADERS, usageComment, type FallbackUsage } from './serve-common.js';
import type { RequestState } from './state.js';
import { pumpStream } from './stream-writer.js';

const TAIL = 4096;
const DATA = Buffer.from('data:');

/** `data: {...}` + blank line with the JSON's top-level model replaced (other lines of the event kept). */
function rewriteEventModel(event: Buffer, model: string): Buffer {
  const at = event.indexOf(DATA);
  if (at < 0) return event;
  const from = at + DATA.length + (event[at + DATA.length] === 0x20 ? 1 : 0);
  const spliced = spliceBody(event.subarray(from), model, false, false);
  return spliced ? Buffer.concat([event.subarray(0, from), spliced]) : event;
}

/** Non-stream passthrough: the upstream bytes go to the client unchanged; only `usage` is parsed. */
export async function serveJson(
  st: RequestState,
  res: ResponseSink,
  c: Candidate,
  response: UpstreamResponse,
  fallback: FallbackUsage,
  reportModel: string | null,
): Promise<void> {
  const raw = await response.body.readAll();
  const buf = reportModel ? (spliceBody(raw, reportModel, false, false) ?? raw) : raw;
  const tail = buf.subarray(Math.max(0, buf.length - TAIL)).toString('utf8');
  const u = lastUsageObject(tail) ?? lastUsageObject(buf.toString('utf8'));
  price(st, c, u ? c.adapter.usage(u) : await fallback(0));
  st.status = 200;
  res.send(200, commonHeaders(st, true, 'application/json'), buf);
}

/**
 * Stream passthrough with backpressure: SSE bytes are forwarded as they arrive, the usage chunk is tapped.
 * The cost is known only at the end of the stream, so it travels in an SSE comment line before
 * `data: [DONE]` (`: x-svc-usage {...}`), which SSE clients ignore. Returns how the stream ended.
 */
export async function serveStream(
  st: RequestState,
  res: ResponseSink,
  c: Candidate,
  response: UpstreamResponse,
  clientWantsUsage: boolean,
  fallback: FallbackUsage,
  reportModel: string | null,
  idleMs: number,
): Promise<'ok' | 'aborted' | 'error'> {
  const rewrite = reportModel ? (ev: Buffer): Buffer => rewriteEventModel(ev, reportModel) : null;
  const tap = new OpenAIStreamTap(clientWantsUsage, rewrite);
  st.status = 200;
  res.begin(200, commonHeaders(st, true, SSE_HEADERS['content-type'], SSE_HEADERS['cache-control']));
  const pumped = await pumpStream(res, response.body, idleMs, (chunk) => tap.feed(chunk));
  let outcome = pumped.outcome;
  let rest: string | Buffer = outcome === 'aborted' ? '' : tap.flush();
  if (tap.usage) price(st, c, c.adapter.usage(tap.usage));
  else {
    // The input count may wait for the tokenizer thread to start: the client's bytes do not wait for it.
    res.write(rest);
    rest = '';
    price(st, c, await fallback(tap.contentEvents));
  }
  if (outcome === 'error' || (outcome === 'ok' && !tap.sawDone)) {
    outcome = 'error';
    const err = { error: { message: 'The upstream stream ended unexpectedly.', type: 'gateway_error', code: 'service_unavailable' } };
    res.end(rest, `data: ${JSON.stringify(err)}\n\n`);
  } else res.end(rest, usageComment(st), tap.end);
  return outcome;
}
