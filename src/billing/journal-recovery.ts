/**
 * The settlement journal's files and what a restart does with them (src/billing/settlement-journal.ts writes them):
 * numbered segments of JSON lines, read back with the latest record per request id, and replayed into the store
 * before the gateway serves.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StoreUnavailableError, type SettlementEntry } from '../store/contract.js';
import type { SettlementJournal } from './settlement-journal.js';

const SEGMENT_RE = /^settle-(\d+)\.jnl$/;

/** The file of segment `n` in the journal's directory. */
export function segmentPath(dir: string, n: number): string {
  return join(dir, `settle-${n}.jnl`);
}

/** The segments in `dir` (numbers, ascending) and the latest record of each request id in them, with its segment. */
export function readSegments(dir: string): { entries: (SettlementEntry & { segment: number })[]; segments: number[] } {
  const segments = readdirSync(dir)
    .map((f) => SEGMENT_RE.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  const latest = new Map<string, SettlementEntry & { segment: number }>();
  for (const n of segments) {
    const text = readFileSync(segmentPath(dir, n), 'utf8');
    for (const line of text.split('\n')) {
      if (line === '') continue;
      let e: SettlementEntry;
      try {
        e = JSON.parse(line) as SettlementEntry;
      } catch {
        continue; // a torn last line: the write that was cut off never completed, so nothing was answered on it
      }
      if (typeof e.requestId !== 'string' || typeof e.orgId !== 'string') continue;
      latest.delete(e.requestId);
      latest.set(e.requestId, { ...e, segment: n });
    }
  }
  return { entries: [...latest.values()], segments };
}

/**
 * Applies what a previous process journaled and the store had not applied (before serving). Idempotent: the
 * store skips request ids it already has. A batch the store rejects (not unavailability: that propagates and
 * the start fails) is retried entry by entry; an entry the store still refuses stays in the journal, is
 * reported in `refused`, and never blocks the start.
 */
export async function replayJournal(
  journal: SettlementJournal,
  settle: (batch: SettlementEntry[]) => Promise<string[]>,
  batchSize = 256,
): Promise<{ replayed: number; applied: number; refused: { requestId: string; error: string }[] }> {
  const entries = journal.recovered();
  let applied = 0;
  const refused: { requestId: string; error: string }[] = [];
  for (let i = 0; i < entries.length; i += batchSize) {
    const batch = entries.slice(i, i + batchSize);
    try {
      applied += (await settle(batch)).length;
      journal.markApplied(batch.map((e) => e.requestId));
      continue;
    } catch (e) {
      if (e instanceof StoreUnavailableError) throw e;
    }
    for (const entry of batch) {
      try {
        applied += (await settle([entry])).length;
        journal.markApplied([entry.requestId]);
      } catch (e) {
        if (e instanceof StoreUnavailableError) throw e;
        refused.push({ requestId: entry.requestId, error: (e as Error).message });
      }
    }
  }
  return { replayed: entries.length, applied, refused };
}
