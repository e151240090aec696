import type { SettlementEntry } from '../../src/store/contract.js';

/** A settled chat completion of org-a's key-1 (1,000 nano-USD, 100 in / 20 out), with `fields` over it. */
export function settlementEntry(fields: Partial<SettlementEntry> & { requestId: string }): SettlementEntry {
  return {
    orgId: 'org-a',
    keyId: 'key-1',
    teamId: null,
    user: null,
    model: 'gpt-4o-mini',
    requestedModel: 'gpt-4o-mini',
    cost: 1000,
    inputTokens: 100,
    outputTokens: 20,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    tokens: 120,
    tags: [],
    hadHold: false,
    scopes: [],
    status: 'ok',
    endpoint: '/v1/chat/completions',
    latencyMs: 3,
    at: Date.now(),
    ...fields,
  };
}
