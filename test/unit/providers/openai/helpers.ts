/**
 * Shared by the provider unit tests: canonical request defaults, fixture loading, and the split-robustness
 * check (a recorded stream decoded whole, cut at every byte position, and fed one byte at a time must give
 * the same events).
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { CanonicalRequest, CanonicalStreamEvent } from '../../../../src/canonical/types.js';
import type { StreamDecoder } from '../../../../src/providers/adapter.js';

export function canonical(overrides: Partial<CanonicalRequest> = {}): CanonicalRequest {
  return {
    model: 'gw-model',
    system: [],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
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
    ...overrides,
  };
}

export function fixture(provider: string, name: string): Buffer {
  return readFileSync(new URL(`../../../fixtures/${provider}/${name}`, import.meta.url));
}

export function fixtureText(provider: string, name: string): string {
  return fixture(provider, name).toString('utf8');
}

export function decode(make: () => StreamDecoder, bytes: Buffer, cuts: readonly number[] = []): CanonicalStreamEvent[] {
  const decoder = make();
  const out: CanonicalStreamEvent[] = [];
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    out.push(...decoder.push(bytes.subarray(at, cut)));
    at = cut;
  }
  out.push(...decoder.end());
  return out;
}

/** Decodes `bytes` whole, then split at every byte position, then byte by byte; all must agree. */
export function decodeEverySplit(make: () => StreamDecoder, bytes: Buffer): CanonicalStreamEvent[] {
  const whole = decode(make, bytes);
  for (let i = 0; i <= bytes.length; i++) {
    const split = decode(make, bytes, [i]);
    if (JSON.stringify(split) !== JSON.stringify(whole)) expect(split, `split at byte ${i}`).toEqual(whole);
  }
  const bytewise = Array.from({ length: bytes.length }, (_, i) => i);
  expect(decode(make, bytes, bytewise)).toEqual(whole);
  return whole;
}

/** Canonical text of each block, by index, from a decoded stream. */
export function blockTexts(events: CanonicalStreamEvent[]): Record<number, string> {
  const out: Record<number, string> = {};
  for (const ev of events) {
    if (ev.type === 'text_delta' || ev.type === 'thinking_delta') out[ev.index] = (out[ev.index] ?? '') + ev.text;
    if (ev.type === 'tool_args_delta') out[ev.index] = (out[ev.index] ?? '') + ev.json;
  }
  return out;
}
