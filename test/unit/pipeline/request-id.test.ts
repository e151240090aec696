import { describe, expect, it } from 'vitest';
import { newRequestId } from '../../../src/pipeline/request-id.js';
import { RequestState } from '../../../src/pipeline/state.js';
import type { IncomingRequest } from '../../../src/server/types.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it('are UUID version 7 carrying the time in milliseconds', () => {
    const at = Date.UTC(2026, 10, 24, 9, 0, 0, 123);
    const id = newRequestId(at);
    expect(id).toMatch(UUID_V7);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
    expect(new Set(Array.from({ length: 1000 }, () => newRequestId(at))).size).toBe(1000);
  });

  it('sort in the order they were made (the ledger-by-request index grows at its tail)', () => {
    const start = Date.now();
    const ids = Array.from({ length: 200 }, (_, i) => newRequestId(start + i * 7));
    expect([...ids].sort()).toEqual(ids);
  });

  it('are what a request state carries, later states sorting after earlier ones', async () => {
    const first = new RequestState({} as IncomingRequest);
    await new Promise((r) => setTimeout(r, 5));
    const second = new RequestState({} as IncomingRequest);
    expect(first.id).toMatch(UUID_V7);
    expect(first.id < second.id).toBe(true);
  });
});
