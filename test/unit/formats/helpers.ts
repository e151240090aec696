import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { TokenUsage } from '../../../src/billing/price.js';
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamEvent } from '../../../src/canonical/types.js';
import { GatewayError } from '../../../src/errors/gateway-error.js';
import type { EncodeContext, StreamEncoder } from '../../../src/formats/format.js';

export const ctx = (over: Partial<EncodeContext> = {}): EncodeContext => ({
  model: 'gw-model',
  requestId: 'req1',
  created: 1_700_000_000,
  streamUsage: false,
  ...over,
});

export const usage = (over: Partial<TokenUsage> = {}): TokenUsage => ({
  inputTokens: 10,
  outputTokens: 5,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
  ...over,
});

/** A decoded request with every default; tests spell out only what differs. */
export const canon = (over: Partial<CanonicalRequest> = {}): CanonicalRequest => ({
  model: 'm',
  system: [],
  messages: [],
  tools: [],
  toolChoice: null,
  maxTokens: null,
  stop: [],
  n: 1,
  responseFormat: null,
  reasoning: null,
  stream: false,
  user: null,
  extensions: {},
  ...over,
});

export const response = (over: Partial<CanonicalResponse> = {}): CanonicalResponse => ({
  id: 'up-1',
  upstreamModel: 'upstream-model',
  created: 1_700_000_001,
  content: [{ type: 'text', text: 'Hello world' }],
  stopReason: 'stop',
  stopSequence: null,
  usage: usage(),
  ...over,
});

const halves = (s: string): string[] => (s.length < 2 ? [s] : [s.slice(0, s.length >> 1), s.slice(s.length >> 1)]);

/**
 * The stream events an upstream would produce for `res`: start, each block with its text split in two
 * deltas, then the finish and usage last (OpenAI upstreams report usage after the finish reason).
 */
export function eventsOf(res: CanonicalResponse): CanonicalStreamEvent[] {
  const out: CanonicalStreamEvent[] = [{ type: 'start', id: res.id, upstreamModel: res.upstreamModel }];
  res.content.forEach((part, index) => {
    if (part.type === 'text') {
      out.push({ type: 'block_start', index, block: { type: 'text' } });
      for (const text of halves(part.text)) out.push({ type: 'text_delta', index, text });
    } else if (part.type === 'tool_call') {
      out.push({ type: 'block_start', index, block: { type: 'tool_call', id: part.id, name: part.name } });
      for (const json of halves(part.arguments)) out.push({ type: 'tool_args_delta', index, json });
    } else {
      out.push({ type: 'block_start', index, block: { type: 'thinking' } });
      for (const text of halves(part.text)) out.push({ type: 'thinking_delta', index, text });
      if (part.signature !== undefined) out.push({ type: 'signature_delta', index, signature: part.signature });
    }
    out.push({ type: 'block_stop', index });
  });
  out.push({ type: 'finish', stopReason: res.stopReason, stopSequence: res.stopSequence });
  out.push({ type: 'usage', usage: res.usage });
  return out;
}

export function encodeAll(enc: StreamEncoder, events: readonly CanonicalStreamEvent[]): string {
  let out = '';
  for (const ev of events) out += enc.push(ev);
  return out + enc.end();
}

/** Asserts a 400 invalid_request naming `param`. */
export function expectInvalid(fn: () => unknown, param: string | undefined, message?: RegExp): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught, `expected a 400 for ${param}`).toBeInstanceOf(GatewayError);
  const err = caught as GatewayError;
  expect(err.status).toBe(400);
  expect(err.code).toBe('invalid_request');
  expect(err.param).toBe(param);
  if (message) expect(err.message).toMatch(message);
}

/** A one-route HTTP server that answers every request with the bytes it was given, for the official SDKs. */
export class FakeUpstream {
  readonly #server: Server;
  #status = 200;
  #contentType = 'application/json';
  #body = '';
  /** The JSON bodies the SDK sent, in order. */
  readonly requests: unknown[] = [];

  private constructor() {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        this.requests.push(text === '' ? null : JSON.parse(text));
        res.writeHead(this.#status, { 'content-type': this.#contentType });
        res.end(this.#body);
      });
    });
  }

  static async start(): Promise<FakeUpstream> {
    const up = new FakeUpstream();
    await new Promise<void>((resolve) => up.#server.listen(0, '127.0.0.1', resolve));
    return up;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  json(body: unknown, status = 200): void {
    this.#status = status;
    this.#contentType = 'application/json';
    this.#body = JSON.stringify(body);
  }

  sse(body: string): void {
    this.#status = 200;
    this.#contentType = 'text/event-stream';
    this.#body = body;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}
