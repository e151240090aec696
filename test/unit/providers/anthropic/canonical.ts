/** Test helpers shared by the provider unit tests: a canonical request with defaults, fixture loading. */
import { readFileSync } from 'node:fs';
import type { CanonicalRequest, CanonicalStreamEvent } from '../../../../src/canonical/types.js';
import type { StreamDecoder } from '../../../../src/providers/adapter.js';

export function canonical(patch: Partial<CanonicalRequest> = {}): CanonicalRequest {
  return {
    model: 'anthropic/claude-sonnet-4',
    system: [],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
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
    ...patch,
  };
}

export function fixture(provider: 'anthropic' | 'bedrock', name: string): Buffer {
  return readFileSync(new URL(`../../../fixtures/${provider}/${name}`, import.meta.url));
}

/** Feeds `bytes` to a fresh decoder in the given pieces and returns every event, end() included. */
export function decodeInPieces(make: () => StreamDecoder, bytes: Buffer, cuts: readonly number[]): CanonicalStreamEvent[] {
  const decoder = make();
  const events: CanonicalStreamEvent[] = [];
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    events.push(...decoder.push(bytes.subarray(at, cut)));
    at = cut;
  }
  events.push(...decoder.end());
  return events;
}

/** Deterministic pseudo-random cut points (a small LCG, so failures reproduce). */
export function randomCuts(length: number, count: number, seed: number): number[] {
  let x = seed;
  const cuts = new Set<number>();
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    cuts.add(x % (length + 1));
  }
  return [...cuts].sort((a, b) => a - b);
}
