/**
 * Drives a provider adapter against the simulator: buildRequest -> fetch -> parseResponse or the stream
 * decoder, or mapError for an error status. `summarize` folds a stream into the shape of a response so a
 * streamed answer can be compared with the non-stream one.
 */
import type { TokenUsage } from '../../../../src/billing/price.js';
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamEvent, StopReason } from '../../../../src/canonical/types.js';
import type { EndpointConfig } from '../../../../src/config/schema.js';
import type { GatewayError } from '../../../../src/errors/gateway-error.js';
import type { ProviderAdapter } from '../../../../src/providers/adapter.js';

export type Called =
  | { ok: true; response: CanonicalResponse; raw: unknown }
  | { ok: true; events: CanonicalStreamEvent[] }
  | { ok: false; error: GatewayError; status: number };

export async function callAdapter(
  adapter: ProviderAdapter,
  req: CanonicalRequest,
  ep: EndpointConfig,
  env: NodeJS.ProcessEnv = {},
  headers: Record<string, string> = {},
): Promise<Called> {
  const up = adapter.buildRequest(req, ep, { env, maxTokens: req.maxTokens ?? 256, now: new Date() });
  const res = await fetch(up.url, { method: 'POST', headers: { ...up.headers, ...headers }, body: up.body });
  if (!res.ok) return { ok: false, status: res.status, error: adapter.mapError(res.status, await res.text()) };
  if (!req.stream) {
    const body = Buffer.from(await res.arrayBuffer());
    return { ok: true, response: adapter.parseResponse(body), raw: JSON.parse(body.toString('utf8')) as unknown };
  }
  const decoder = adapter.streamDecoder();
  const events: CanonicalStreamEvent[] = [];
  for await (const chunk of res.body ?? []) events.push(...decoder.push(Buffer.from(chunk as Uint8Array)));
  events.push(...decoder.end());
  return { ok: true, events };
}

export interface Summary {
  text: string;
  toolCalls: { id: string; name: string; arguments: string }[];
  usage: TokenUsage | null;
  stopReason: StopReason | null;
}

export function summarizeStream(events: CanonicalStreamEvent[]): Summary {
  const s: Summary = { text: '', toolCalls: [], usage: null, stopReason: null };
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  for (const ev of events) {
    if (ev.type === 'text_delta') s.text += ev.text;
    else if (ev.type === 'block_start' && ev.block.type === 'tool_call') {
      const call = { id: ev.block.id, name: ev.block.name, arguments: '' };
      calls.set(ev.index, call);
      s.toolCalls.push(call);
    } else if (ev.type === 'tool_args_delta') {
      const call = calls.get(ev.index);
      if (call) call.arguments += ev.json;
    } else if (ev.type === 'usage') s.usage = ev.usage;
    else if (ev.type === 'finish') s.stopReason = ev.stopReason;
  }
  return s;
}

export function summarizeResponse(r: CanonicalResponse): Summary {
  return {
    text: r.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join(''),
    toolCalls: r.content.flatMap((c) => (c.type === 'tool_call' ? [{ id: c.id, name: c.name, arguments: c.arguments }] : [])),
    usage: r.usage,
    stopReason: r.stopReason,
  };
}

export function expectResponse(c: Called): { response: CanonicalResponse; raw: unknown } {
  if (!c.ok || !('response' in c)) throw new Error(`expected a response, got ${JSON.stringify(c.ok ? 'events' : c.error.toBody())}`);
  return c;
}

export function expectEvents(c: Called): CanonicalStreamEvent[] {
  if (!c.ok || !('events' in c)) throw new Error(`expected a stream, got ${JSON.stringify(c.ok ? 'response' : c.error.toBody())}`);
  return c.events;
}

export function expectError(c: Called): { error: GatewayError; status: number } {
  if (c.ok) throw new Error('expected an upstream error');
  return c;
}
