import type { TokenUsage } from '../billing/price.js';
import type { CanonicalStreamEvent } from '../canonical/types.js';
import { GatewayError, isGatewayError } from '../errors/gateway-error.js';
import type { ClientFormat, EncodeContext } from '../formats/format.js';
import type { ResponseSink } from '../server/types.js';
import type { UpstreamResponse } from '../upstream/client.js';
import type { Candidate } from './chain.js';
import { commonHeaders } from './response-headers.js';
import { price, SSE_HEADERS, usageComment, type FallbackUsage } from './serve-common.js';
import type { RequestState } from './state.js';
import { pumpStream } from './stream-writer.js';

function asStreamFailure(e: unknown): GatewayError {
  return isGatewayError(e) ? e : new GatewayError('service_unavailable', { message: 'The upstream stream failed.' });
}

/** Cross-format, non-stream: provider body -> canonical response -> the client's format. */
export async function serveCanonicalJson(
  st: RequestState,
  res: ResponseSink,
  c: Candidate,
  response: UpstreamResponse,
  format: ClientFormat,
  ctx: EncodeContext,
): Promise<void> {
  const parsed = c.adapter.parseResponse(await response.body.readAll());
  price(st, c, parsed.usage);
  const body = JSON.stringify(format.encodeResponse(parsed, ctx));
  st.status = 200;
  res.send(200, commonHeaders(st, true, 'application/json'), body);
}

/**
 * Cross-format stream transcode: the provider's per-request decoder turns upstream bytes into canonical
 * events, the format's encoder turns them into the client's SSE; written as each upstream chunk arrives,
 * with backpressure. Usage comes from the upstream's usage events; on disconnect, what was emitted.
 */
export async function serveCanonicalStream(
  st: RequestState,
  res: ResponseSink,
  c: Candidate,
  response: UpstreamResponse,
  format: ClientFormat,
  ctx: EncodeContext,
  fallback: FallbackUsage,
  idleMs: number,
): Promise<'ok' | 'aborted' | 'error'> {
  const decoder = c.adapter.streamDecoder();
  const encoder = format.streamEncoder(ctx);
  let usage: TokenUsage | null = null;
  let emitted = 0;
  let finished = false;
  const encode = (events: CanonicalStreamEvent[]): string => {
    let out = '';
    for (const ev of events) {
      if (ev.type === 'usage') usage = ev.usage;
      else if (ev.type === 'text_delta' || ev.type === 'tool_args_delta' || ev.type === 'thinking_delta') emitted++;
      else if (ev.type === 'finish') finished = true;
      out += encoder.push(ev);
    }
    return out;
  };
  st.status = 200;
  res.begin(200, commonHeaders(st, true, SSE_HEADERS['content-type'], SSE_HEADERS['cache-control']));
  const pumped = await pumpStream(res, response.body, idleMs, (chunk) => encode(decoder.push(chunk)));
  let outcome = pumped.outcome;
  let failure: GatewayError | null = null;
  // What is still owed before the terminator: what the decoder held back.
  let tail = '';
  if (outcome === 'error') failure = asStreamFailure(pumped.error);
  else if (outcome === 'ok') {
    try {
      tail = encode(decoder.end());
      if (!finished) throw new GatewayError('service_unavailable', { message: 'The upstream stream ended unexpectedly.' });
    } catch (e) {
      outcome = 'error';
      failure = asStreamFailure(e);
    }
  }
  // A stream that did not finish carries at most partial usage (Anthropic reports output_tokens 1 in
  // message_start): bill no less than the tokens actually emitted to the client.
  const reported = usage as TokenUsage | null; // assigned inside encode(): TS cannot see it
  if (reported === null) {
    // The fallback count may wait for the tokenizer thread to start: the client's bytes do not wait for it.
    res.write(tail);
    tail = '';
  }
  const final =
    reported === null ? await fallback(emitted) : outcome === 'ok' ? reported : { ...reported, outputTokens: Math.max(reported.outputTokens, emitted) };
  price(st, c, final);
  if (outcome === 'ok') res.end(tail, usageComment(st) + encoder.end());
  else if (outcome === 'error') res.end(tail, encoder.error(failure!));
  return outcome;
}
