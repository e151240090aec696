/**
 * Deterministic answer text and token counting, shared by every dialect. A completion "token" is one
 * word of the answer, so tests can predict completion usage exactly; prompt tokens are counted in o200k_base
 * (the gateway's exact counter, src/tokens/o200k.ts, which gives tiktoken's counts) so they resemble what a real model
 * reports.
 */
import { createHash } from 'node:crypto';
import { o200k, type O200k } from '../tokens/o200k.js';

const SENTENCES = [
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit.',
  'Sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.',
  'Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris.',
  'Duis aute irure dolor in reprehenderit in voluptate velit esse.',
  'Excepteur sint occaecat cupidatat non proident, sunt in culpa.',
  'Curabitur pretium tincidunt lacus, nulla gravida orci a odio.',
  'Nullam varius, turpis et commodo pharetra, est eros bibendum elit.',
  'Integer in mauris eu nibh euismod gravida and duis ac tellus.',
  'Praesent blandit dolor, sed non quam in vel mi sit amet augue.',
  'Vivamus quis mi, phasellus a est, pellentesque commodo eros a enim.',
  'Fusce convallis metus id felis luctus adipiscing over the quiet river.',
  'Aenean massa, cum sociis natoque penatibus et magnis dis parturient.',
] as const;

const FILLER = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima'.split(' ');

export function digest(seed: string): Buffer {
  return createHash('sha256').update(seed).digest();
}

/** A stable id fragment from a seed: `length` characters of [a-zA-Z0-9]. */
export function stableId(seed: string, length = 24): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  const bytes = digest(seed);
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet[(bytes[i % bytes.length] ?? 0) % alphabet.length];
  return out;
}

/** "Echo: " and two sentences picked by the seed's hash: the same request always gets the same answer. */
export function naturalText(seed: string): string {
  const bytes = digest(seed);
  const first = SENTENCES[bytes.readUInt32BE(0) % SENTENCES.length];
  const second = SENTENCES[bytes.readUInt32BE(4) % SENTENCES.length];
  return `Echo: ${first} ${second}`;
}

/** Exactly `words` words (for long or precisely sized answers, `x-sim-output-tokens`). */
export function fillerText(words: number): string {
  return Array.from({ length: words }, (_, i) => FILLER[i % FILLER.length]).join(' ');
}

/** Words (completion tokens) of a single-spaced text; joining them with ' ' gives the text back. */
export function words(text: string): string[] {
  return text.split(/\s+/).filter((word) => word.length > 0);
}

/** Collapses whitespace runs, so `words(t).join(' ') === t`. */
export function singleSpaced(text: string): string {
  return words(text).join(' ');
}

/** Cuts the text before the earliest stop sequence, as the real APIs do (the stop text is not returned). */
export function applyStop(text: string, stops: readonly string[]): { text: string; stopped: boolean } {
  let at = -1;
  for (const stop of stops) {
    const index = stop.length > 0 ? text.indexOf(stop) : -1;
    if (index >= 0 && (at < 0 || index < at)) at = index;
  }
  return at < 0 ? { text, stopped: false } : { text: text.slice(0, at).trimEnd(), stopped: true };
}

/**
 * Loads the o200k tables (~30 ms, ~4 MiB, once per process, shared with the gateway's own counts when the simulator
 * runs inside it). The simulator calls this before it listens, so the first request is not slower than the
 * configured latency.
 */
export function warmTokenizer(): O200k {
  return o200k();
}

/** o200k_base token count. */
export function countTokens(text: string): number {
  return text.length === 0 ? 0 : o200k().count(text);
}
