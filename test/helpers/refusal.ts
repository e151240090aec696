import { expect } from 'vitest';
import type { TestGateway } from './gateway.js';

export interface Snapshot {
  upstream: number;
  balance: number;
  held: number;
  ledger: number;
}

export async function snapshot(t: TestGateway, orgId = t.orgId): Promise<Snapshot> {
  await t.gw.deps.settlement.flush(); // earlier successful requests settle first
  const b = await t.store.getBalance(orgId);
  return { upstream: t.sim.stats().requests, balance: b.balance, held: b.held, ledger: (await t.store.listLedger(orgId)).length };
}

export async function post(t: TestGateway, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${t.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}`, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/**
 * Asserts a refusal: status, error.code (null = absent), extra headers, no cost headers, and that nothing
 * reached a provider and no credit moved (contract: a refusal before the hold costs $0 and holds nothing).
 */
export async function expectRefusal(
  t: TestGateway,
  before: Snapshot,
  res: Response,
  status: number,
  code: string | null,
  headers: Record<string, string> = {},
  orgId = t.orgId,
): Promise<{ error: { message: string; type: string; code?: string } }> {
  const body = (await res.json()) as { error: { message: string; type: string; code?: string } };
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(typeof body.error.message).toBe('string');
  expect(typeof body.error.type).toBe('string');
  if (code === null) expect(body.error.code).toBeUndefined();
  else expect(body.error.code).toBe(code);
  for (const [k, v] of Object.entries(headers)) expect(res.headers.get(k), k).toBe(v);
  expect(res.headers.get('x-svc-request-id')).toBeTruthy();
  expect(res.headers.get('x-svc-request-cost')).toBeNull();
  expect(res.headers.get('x-svc-routing')).toBeNull();
  expect(res.headers.get('x-svc-attempts')).toBeNull();
  await new Promise((r) => setTimeout(r, 20)); // let any (wrong) settlement flush
  const after = await snapshot(t, orgId);
  expect(after).toEqual(before);
  expect(after.held).toBe(0);
  return body;
}
