import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Logger } from '../../../src/obs/logger.js';
import { replayJournal } from '../../../src/billing/journal-recovery.js';
import { SettlementJournal } from '../../../src/billing/settlement-journal.js';
import { SettlementQueue } from '../../../src/billing/settlement.js';
import { MemoryStore } from '../../../src/store/memory/memory-store.js';
import { orgRecord, settlement } from '../../conformance/store-fixtures.js';

const files = (dir: string): string[] => readdirSync(dir).sort();
/** Every record in the journal's files, read without opening a journal (opening one on a live directory would tidy it). */
const written = (dir: string): unknown[] =>
  files(dir).flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown));

describe('SettlementJournal', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-journal-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gives back, after a crash, what was appended and not applied; the last record per request id wins', () => {
    const a = new SettlementJournal(dir, { syncMs: 0 });
    const [e1, e2, e3] = [settlement('o', 'k', { cost: 1 }), settlement('o', 'k', { cost: 2 }), settlement('o', 'k', { cost: 3 })];
    a.append({ ...e1, cost: 0, status: 'ok' }); // provisional record at the response's end
    a.append(e1); // final record
    a.append(e2);
    a.append(e3);
    a.markApplied([e2.requestId]);
    expect(a.pending).toBe(2);
    // No close(): the process dies here. A torn line from a cut-off write is skipped.
    appendFileSync(join(dir, files(dir)[0]!), '{"requestId":"torn","orgId');
    const b = new SettlementJournal(dir, { syncMs: 0 });
    // e2's record is still in its segment (applied markers are not journaled): replay is idempotent instead.
    expect(b.recovered()).toEqual([e1, e2, e3]);
    b.markApplied([e1.requestId, e2.requestId, e3.requestId]);
    b.close();
    expect(files(dir)).toEqual([]);
  });

  it('keeps lines of any length and script byte for byte, and counts their bytes for rotation', () => {
    const j = new SettlementJournal(dir, { syncMs: 0, segmentBytes: 20_000 });
    // Multi-byte text, and a line longer than the reused encode buffer (8 KiB) in bytes though not in characters.
    const long = '€'.repeat(3_000);
    const entries = [
      settlement('o', 'k', { tags: ['café ☕', '用户', '🧾 invoice'] }),
      settlement('o', 'k', { tags: [long] }),
      settlement('o', 'k', { tags: ['after the long one'] }),
      settlement('o', 'k', { tags: [long, long] }),
    ];
    for (const e of entries) j.append(e);
    // ~9.5 KB and ~18.5 KB lines against a 20 KB segment: counted in bytes (not characters, ~11 KB in all), the last
    // line starts a second segment.
    expect(files(dir).length).toBe(2);
    const b = new SettlementJournal(dir, { syncMs: 0 });
    expect(b.recovered()).toEqual(entries);
    b.markApplied(entries.map((e) => e.requestId));
    b.close();
    j.close();
  });

  it('group commit: records of one turn are written together before any of their callbacks runs, in order', async () => {
    const j = new SettlementJournal(dir, { syncMs: 0 });
    const entries = Array.from({ length: 5 }, (_x, i) => settlement('o', 'k', { cost: i + 1 }));
    const seen: Array<[string, number, Error | null]> = [];
    const onDisk = (): number => written(dir).length;
    for (const e of entries) j.appendThen(e, (err) => seen.push([e.requestId, onDisk(), err]));
    // Nothing is written, and nothing answered, within the turn.
    expect(seen).toEqual([]);
    expect(onDisk()).toBe(0);
    expect(j.pending).toBe(5);
    await new Promise((r) => setImmediate(r));
    // Every callback found all five records in the kernel already: one write for the turn.
    expect(seen).toEqual(entries.map((e) => [e.requestId, 5, null]));
    expect(written(dir)).toEqual(entries);
    j.markApplied(entries.map((e) => e.requestId));
    expect(j.pending).toBe(0);
    j.close();
    expect(files(dir)).toEqual([]);
  });

  it('group commit: a synchronous append, markApplied and close write the gathered records first', () => {
    const j = new SettlementJournal(dir, { syncMs: 0 });
    const provisional = settlement('o', 'k', { cost: 1 });
    const done: string[] = [];
    j.appendThen(provisional, () => done.push('provisional written'));
    // The final record of the same request, repriced: it must land after the provisional one (the last one wins).
    j.append({ ...provisional, cost: 2 });
    expect(done).toEqual(['provisional written']);
    expect(written(dir)).toEqual([provisional, { ...provisional, cost: 2 }]);
    // markApplied on a record still gathered: written and tracked first, so its segment can go.
    const other = settlement('o', 'k');
    j.appendThen(other, () => done.push('other written'));
    j.markApplied([provisional.requestId, other.requestId]);
    expect(done).toEqual(['provisional written', 'other written']);
    expect(j.pending).toBe(0);
    const last = settlement('o', 'k');
    j.appendThen(last, () => done.push('last written'));
    j.close();
    expect(done.at(-1)).toBe('last written');
    expect(written(dir).at(-1)).toEqual(last);
  });

  it('afterCommit: work put off runs once the records of the turn are written and answered, in order; at once with none armed', async () => {
    const j = new SettlementJournal(dir, { syncMs: 0 });
    const order: string[] = [];
    // Nothing armed: runs at once.
    j.afterCommit(() => order.push('at once'));
    expect(order).toEqual(['at once']);
    const [a, b] = [settlement('o', 'k'), settlement('o', 'k')];
    j.appendThen(a, () => order.push(`answer a (${written(dir).length} on disk)`));
    j.afterCommit(() => order.push('bookkeeping a'));
    j.appendThen(b, () => order.push(`answer b (${written(dir).length} on disk)`));
    j.afterCommit(() => order.push('bookkeeping b'));
    // Within the turn neither the answers nor the bookkeeping ran.
    expect(order).toEqual(['at once']);
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['at once', 'answer a (2 on disk)', 'answer b (2 on disk)', 'bookkeeping a', 'bookkeeping b']);
    j.close();
  });

  it('afterCommit: a throwing piece of work is reported and the rest still runs; close() runs what is pending', async () => {
    const j = new SettlementJournal(dir, { syncMs: 0 });
    const errors: unknown[] = [];
    j.onTailError = (e) => errors.push(e);
    const ran: string[] = [];
    j.appendThen(settlement('o', 'k'), () => ran.push('answer'));
    j.afterCommit(() => {
      throw new Error('boom');
    });
    j.afterCommit(() => ran.push('after the throw'));
    await new Promise((r) => setImmediate(r));
    expect(ran).toEqual(['answer', 'after the throw']);
    expect(errors.map((e) => (e as Error).message)).toEqual(['boom']);
    // Pending when the journal closes: written, answered and run by close(), not dropped.
    j.appendThen(settlement('o', 'k'), () => ran.push('answer 2'));
    j.afterCommit(() => ran.push('bookkeeping 2'));
    j.close();
    expect(ran.slice(2)).toEqual(['answer 2', 'bookkeeping 2']);
    // After close there is no commit to wait for.
    j.afterCommit(() => ran.push('after close'));
    expect(ran.at(-1)).toBe('after close');
  });

  it('group commit: a burst of long records grows the buffer and rotates by bytes, losing nothing', async () => {
    const j = new SettlementJournal(dir, { syncMs: 0, segmentBytes: 50_000 });
    const long = '€'.repeat(5_000);
    const entries = Array.from({ length: 40 }, (_x, i) => settlement('o', 'k', { tags: [`${i}`, long] }));
    let ok = 0;
    for (const e of entries) j.appendThen(e, (err) => (err === null ? ok++ : undefined));
    await new Promise((r) => setImmediate(r));
    expect(ok).toBe(40);
    expect(written(dir)).toEqual(entries);
    // ~600 KB in one turn: one write, then the next turn starts a segment of its own.
    j.appendThen(settlement('o', 'k'), () => undefined);
    j.flush();
    expect(files(dir).length).toBe(2);
    j.close();
  });

  it('rotates segments and deletes each one once everything in it is applied (off the event loop)', async () => {
    const j = new SettlementJournal(dir, { syncMs: 0, segmentBytes: 1_000 });
    const entries = Array.from({ length: 12 }, () => settlement('o', 'k'));
    for (const e of entries) j.append(e);
    expect(files(dir).length).toBeGreaterThan(2);
    j.markApplied(entries.slice(0, 11).map((e) => e.requestId));
    // The unlinks run on the thread pool: none has completed in the same turn.
    expect(files(dir).length).toBeGreaterThan(2);
    await j.deletions();
    expect(files(dir).length).toBe(1); // only the segment being written (holding the last entry)
    j.markApplied([entries[11]!.requestId]);
    j.close();
    expect(files(dir)).toEqual([]);
  });

  it('replays into the store idempotently: an entry the store already applied is not charged twice', async () => {
    const store = new MemoryStore({ snapshotPath: null });
    const org = orgRecord();
    await store.createOrg(org);
    await store.topUp(org.id, 1_000, 'seed');
    const [applied, lost] = [settlement(org.id, 'k', { cost: 100 }), settlement(org.id, 'k', { cost: 30 })];
    const a = new SettlementJournal(dir, { syncMs: 0 });
    a.append(applied);
    a.append(lost);
    await store.settle([applied]); // the batch reached the store, but the crash came before markApplied
    const b = new SettlementJournal(dir, { syncMs: 0 });
    expect(await replayJournal(b, (batch) => store.settle(batch))).toEqual({ replayed: 2, applied: 1, refused: [] });
    expect(await store.getBalance(org.id)).toEqual({ balance: 870, held: 0 });
    expect(b.pending).toBe(0);
    b.close();
    expect(files(dir)).toEqual([]);
    await store.close();
  });

  it('an entry the store refuses stays in the journal and does not block the others or the start', async () => {
    const store = new MemoryStore({ snapshotPath: null });
    const [good, bad] = [settlement('o', 'k', { cost: 7 }), settlement('o', 'k', { cost: 1.5 })];
    const a = new SettlementJournal(dir, { syncMs: 0 });
    a.append(bad);
    a.append(good);
    const b = new SettlementJournal(dir, { syncMs: 0 });
    const r = await replayJournal(b, (batch) => store.settle(batch));
    expect(r).toMatchObject({ replayed: 2, applied: 1, refused: [{ requestId: bad.requestId }] });
    expect(r.refused[0]?.error).toMatch(/cost must be a safe integer/);
    expect(await store.getLedgerEntry('o', good.requestId)).not.toBeNull();
    expect(b.pending).toBe(1);
    b.close();
    // Still there on the next start (with `good`, which shares its segment and which the store then skips).
    expect(new SettlementJournal(dir, { syncMs: 0 }).recovered()).toEqual([bad, good]);
    await store.close();
  });

  it('SettlementQueue journals every queued entry and forgets it once the store applied it', async () => {
    const store = new MemoryStore({ snapshotPath: null });
    const journal = new SettlementJournal(dir, { syncMs: 0 });
    const q = new SettlementQueue(store, { batchSize: 100, flushMs: 60_000, journal }, new Logger('error', true, () => undefined));
    const e = settlement('o', 'k', { cost: 5 });
    q.enqueue(e);
    expect(journal.pending).toBe(1);
    expect(new SettlementJournal(dir, { syncMs: 0 }).recovered()).toEqual([e]);
    await q.flush();
    expect(journal.pending).toBe(0);
    await q.close();
    await store.close();
  });
});
