/**
 * A settlement journal whose write(2) fails (disk full, I/O error): every response waiting on that group commit
 * learns it, and the journaling response sink withholds the answer (503 for a whole response, a stream cut short)
 * instead of answering something a crash could leave unbilled. writeSync is made to fail through a module mock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SettlementJournal } from '../../../src/billing/settlement-journal.js';
import { SettlementQueue } from '../../../src/billing/settlement.js';
import { Logger } from '../../../src/obs/logger.js';
import { journalingSink } from '../../../src/pipeline/finish.js';
import type { GatewayDeps } from '../../../src/pipeline/deps.js';
import { RequestState } from '../../../src/pipeline/state.js';
import type { Principal } from '../../../src/pipeline/authenticate.js';
import type { HeaderList, IncomingRequest, ResponseSink } from '../../../src/server/types.js';
import { MemoryStore } from '../../../src/store/memory/memory-store.js';
import { settlement } from '../../conformance/store-fixtures.js';

const disk = vi.hoisted(() => ({ full: false, tearNext: false }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const real = fs.writeSync as (fd: number, buf: Buffer, off: number, len: number) => number;
  const writeSync = ((...args: Parameters<typeof fs.writeSync>) => {
    if (disk.full) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    if (disk.tearNext && Buffer.isBuffer(args[1])) {
      // Half of the bytes reach the file, then the disk fills: a torn line.
      disk.tearNext = false;
      const [fd, buf, off, len] = args as unknown as [number, Buffer, number, number];
      real(fd, buf, off, Math.floor(len / 2));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    }
    return (fs.writeSync as (...a: Parameters<typeof fs.writeSync>) => number)(...args);
  }) as typeof fs.writeSync;
  return { ...fs, writeSync };
});

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Records what the sink was asked to send. */
class RecordingSink implements ResponseSink {
  aborted = false;
  backpressureEvents = 0;
  sent: Array<{ status: number; body: string }> = [];
  headers: HeaderList[] = [];
  begun: number | null = null;
  chunks: string[] = [];
  ended = false;
  onAbort(): void {}
  send(status: number, headers: HeaderList, body: string | Uint8Array): void {
    this.sent.push({ status, body: Buffer.from(body).toString() });
    this.headers.push(headers);
  }
  begin(status: number): void {
    this.begun = status;
  }
  write(chunk: string | Uint8Array): boolean {
    this.chunks.push(Buffer.from(chunk).toString());
    return true;
  }
  drained(): Promise<void> {
    return Promise.resolve();
  }
  end(...chunks: (string | Uint8Array)[]): void {
    for (const c of chunks) this.chunks.push(Buffer.from(c).toString());
    this.ended = true;
  }
  wasCut = false;
  cut(): void {
    this.wasCut = true;
  }
}

describe('a settlement journal that cannot write', () => {
  let dir: string;
  let errors: string[];
  let journal: SettlementJournal;
  let deps: GatewayDeps;
  let store: MemoryStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-journal-fail-'));
    errors = [];
    journal = new SettlementJournal(dir, { syncMs: 0 });
    store = new MemoryStore({ snapshotPath: null });
    const log = new Logger('error', true, (line) => errors.push(line));
    const queue = new SettlementQueue(store, { batchSize: 100, flushMs: 60_000, journal }, log);
    deps = { settlement: queue, log } as unknown as GatewayDeps;
  });
  afterEach(async () => {
    disk.full = false;
    disk.tearNext = false;
    journal.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const servedState = (): RequestState => {
    const st = new RequestState({ path: '/v1/chat/completions' } as IncomingRequest);
    st.principal = { org: { id: 'o' }, key: { id: 'k', teamId: null }, team: null, alias: 'sk-...abcd', legacy: false } as unknown as Principal;
    st.servedModel = 'gpt-4o-mini';
    st.cost = 1_000;
    st.status = 200;
    return st;
  };

  it('tells every response of the failed group commit, tracks none of them, and writes again once the disk recovers', async () => {
    disk.full = true;
    const results: Array<string | null> = [];
    for (let i = 0; i < 3; i++) journal.appendThen(settlement('o', 'k'), (err) => results.push(err ? (err as NodeJS.ErrnoException).code ?? err.message : null));
    await tick();
    expect(results).toEqual(['ENOSPC', 'ENOSPC', 'ENOSPC']);
    expect(journal.pending).toBe(0);
    disk.full = false;
    journal.appendThen(settlement('o', 'k'), (err) => results.push(err === null ? 'written' : 'failed'));
    await tick();
    expect(results.at(-1)).toBe('written');
    expect(journal.pending).toBe(1);
  });

  it('a write torn part-way costs only its own records: the next write starts on a new line', async () => {
    const [torn, after] = [settlement('o', 'k', { cost: 1 }), settlement('o', 'k', { cost: 2 })];
    const results: Array<Error | null> = [];
    disk.tearNext = true;
    journal.appendThen(torn, (err) => results.push(err));
    await tick();
    expect(results[0]).toBeInstanceOf(Error);
    journal.appendThen(after, (err) => results.push(err));
    await tick();
    expect(results[1]).toBeNull();
    journal.close();
    // Replay after a restart: the torn fragment is skipped, the record written after it is not lost.
    expect(new SettlementJournal(dir, { syncMs: 0 }).recovered()).toEqual([after]);
  });

  it('the synchronous append throws on a torn write, and the record written after it survives replay', () => {
    const [torn, after] = [settlement('o', 'k', { cost: 3 }), settlement('o', 'k', { cost: 4 })];
    disk.tearNext = true;
    expect(() => journal.append(torn)).toThrow(/ENOSPC/);
    journal.append(after);
    journal.close();
    expect(new SettlementJournal(dir, { syncMs: 0 }).recovered()).toEqual([after]);
  });

  it('withholds a whole response: 503 service_unavailable instead of the answer, and says why in the log', async () => {
    const st = servedState();
    const res = new RecordingSink();
    disk.full = true;
    journalingSink(deps, st, '/v1/chat/completions', res).send(200, {}, '{"answer":"the unbillable one"}');
    expect(res.sent).toEqual([]); // nothing leaves before the record is written
    await tick();
    expect(res.sent).toHaveLength(1);
    expect(res.sent[0]?.status).toBe(503);
    expect(JSON.parse(res.sent[0]?.body ?? '{}')).toMatchObject({ error: { code: 'service_unavailable' } });
    expect(res.sent[0]?.body).not.toContain('unbillable');
    expect(res.headers[0]).toMatchObject({ 'x-svc-request-id': st.id, 'content-type': 'application/json' });
    // Not a served answer: no model, cost or token headers.
    expect(res.headers[0]?.['x-svc-request-cost']).toBeUndefined();
    expect(res.headers[0]?.['x-svc-model']).toBeUndefined();
    expect(errors.join('\n')).toContain('settlement journal write failed');
  });

  it('cuts a stream short: the connection closes without its end ([DONE], the chunked terminator)', async () => {
    const st = servedState();
    const res = new RecordingSink();
    const sink = journalingSink(deps, st, '/v1/chat/completions', res);
    sink.begin(200, {});
    sink.write('data: {"delta":"hi"}\n\n');
    disk.full = true;
    sink.end(': x-svc-usage {}\n\n', 'data: [DONE]\n\n');
    await tick();
    // The connection is closed without the stream's end: the client sees a broken stream, not a complete answer.
    expect(res.wasCut).toBe(true);
    expect(res.ended).toBe(false);
    expect(res.chunks).toEqual(['data: {"delta":"hi"}\n\n']);
  });

  it('answers normally once the record is written', async () => {
    const st = servedState();
    const res = new RecordingSink();
    journalingSink(deps, st, '/v1/chat/completions', res).send(200, {}, '{"answer":42}');
    expect(res.sent).toEqual([]);
    await tick();
    expect(res.sent).toEqual([{ status: 200, body: '{"answer":42}' }]);
    expect(st.journaled?.requestId).toBe(st.id);
    expect(journal.pending).toBe(1);
  });
});
