import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { usdToNano } from '../../../src/billing/money.js';
import { BudgetNotifier, crossedThreshold } from '../../../src/dashboard/notices.js';
import type { Mailer, MailMessage } from '../../../src/dashboard/smtp-client.js';
import { UsersService } from '../../../src/dashboard/users-service.js';
import { keyRecord } from '../../../src/keys/mint.js';
import { Logger } from '../../../src/obs/logger.js';
import type { SettlementEntry, Store } from '../../../src/store/contract.js';
import { createStore } from '../../../src/store/index.js';

const ORG = '3f1c2a8e-0000-4000-8000-00000000000a';

class RecordingMailer implements Mailer {
  sent: MailMessage[] = [];
  fail = false;
  async send(msg: MailMessage): Promise<void> {
    if (this.fail) throw new Error('relay down');
    this.sent.push(msg);
  }
}

let store: Store;
let mailer: RecordingMailer;
let notifier: BudgetNotifier;
let users: UsersService;
let n = 0;

/** Claim windows are fixed and aligned on multiples of their length: start right after a boundary. */
const WINDOW = 200;
async function atWindowStart(): Promise<void> {
  await new Promise((r) => setTimeout(r, WINDOW - (Date.now() % WINDOW) + 5));
}

function shortClaimNotifier(): BudgetNotifier {
  return new BudgetNotifier({
    store, users, mailer, options: { lowBalanceNano: null, teamWarnAt: 0.8 }, claimWindowMs: WINDOW,
    log: new Logger('error', true, () => undefined), serviceName: 'svc',
  });
}

function spend(keyId: string, usd: number, teamId: string | null = null): SettlementEntry {
  n++;
  return {
    requestId: `n-${n}`, orgId: ORG, keyId, teamId, user: null, model: 'm', requestedModel: 'm', cost: usdToNano(usd),
    inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, tokens: 2, tags: [], hadHold: false,
    scopes: [], status: 'ok', endpoint: '/v1/chat/completions', latencyMs: 1, at: Date.now(),
  };
}

async function settle(e: SettlementEntry): Promise<void> {
  await store.settle([e]);
  await notifier.afterSettlement([e]);
}

beforeEach(async () => {
  store = await createStore({ kind: 'memory', snapshotPath: null });
  await store.createOrg({ id: ORG, name: 'Acme', status: 'active', createdAt: 0, fallbacks: [], rpm: null, tpm: null, maxConcurrency: null, priceCeilingPerMTok: null });
  await store.topUp(ORG, usdToNano(1000), 'seed');
  users = new UsersService(store, Date.now);
  // Memberships written directly: the password hash is irrelevant to notices.
  for (const [id, email, role] of [['u1', 'owner@acme.com', 'owner'], ['u2', 'admin@acme.com', 'org_admin'], ['u3', 'dev@acme.com', 'member']] as const) {
    await store.kvSet(`user:${id}`, { id, email, passwordHash: 'x', createdAt: 0 });
    await users.setRole(ORG, id, role);
  }
  mailer = new RecordingMailer();
  notifier = new BudgetNotifier({ store, users, mailer, options: { lowBalanceNano: usdToNano(5), teamWarnAt: 0.8 }, log: new Logger('error', true, () => undefined), serviceName: 'svc' });
});

afterEach(async () => {
  await store.close();
});

describe('crossedThreshold', () => {
  it.each([
    [0, 100, [0.8, 1], null],
    [79, 100, [0.8, 1], null],
    [80, 100, [0.8, 1], 0.8],
    [99, 100, [0.8, 1], 0.8],
    [100, 100, [0.8, 1], 1],
    [250, 100, [0.8, 1], 1],
    [50, 100, [0, 1], null],
  ])('spent %d of %d with %j -> %s', (spent, limit, thresholds, expected) => {
    expect(crossedThreshold(spent, limit, thresholds)).toBe(expected);
  });
});

describe('BudgetNotifier', () => {
  it('key budget: one mail at the soft threshold and one at 100%, to owners and admins only', async () => {
    const key = { ...keyRecord(ORG, 'ci', 'sk-svc-aaaaaaaaaaaaaaaaaaaaWXYZ', { budget: usdToNano(10), budgetWarnAt: 0.5 }) };
    await store.createKey(key);
    await settle(spend(key.id, 4));
    expect(mailer.sent).toHaveLength(0);
    await settle(spend(key.id, 1));
    await settle(spend(key.id, 1));
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]?.to.sort()).toEqual(['admin@acme.com', 'owner@acme.com']);
    expect(mailer.sent[0]?.subject).toBe('[svc] Acme: Budget 50% used: key ci (sk-...WXYZ)');
    await settle(spend(key.id, 5));
    expect(mailer.sent.map((m) => m.subject)).toEqual(['[svc] Acme: Budget 50% used: key ci (sk-...WXYZ)', '[svc] Acme: Budget reached: key ci (sk-...WXYZ)']);
    await settle(spend(key.id, 5));
    expect(mailer.sent).toHaveLength(2);
  });

  it('a raised budget re-arms the thresholds', async () => {
    const key = keyRecord(ORG, 'ci', 'sk-svc-bbbbbbbbbbbbbbbbbbbbWXYZ', { budget: usdToNano(2) });
    await store.createKey(key);
    await settle(spend(key.id, 3));
    expect(mailer.sent).toHaveLength(1);
    await store.updateKey(ORG, key.id, { budget: usdToNano(3) });
    await notifier.checkKey(ORG, key.id);
    expect(mailer.sent).toHaveLength(2);
  });

  it('team budget uses the configured soft threshold', async () => {
    await store.createTeam({ id: 't1', orgId: ORG, name: 'search', rpm: null, tpm: null, budget: usdToNano(10), createdAt: 0 });
    const key = keyRecord(ORG, 'k', 'sk-svc-cccccccccccccccccccccccc', { teamId: 't1' });
    await store.createKey(key);
    await settle(spend(key.id, 7, 't1'));
    expect(mailer.sent).toHaveLength(0);
    await settle(spend(key.id, 1, 't1'));
    expect(mailer.sent.map((m) => m.subject)).toEqual(['[svc] Acme: Team budget 80% used: search']);
  });

  it('concurrent checks of one crossing send one mail', async () => {
    const key = keyRecord(ORG, 'k', 'sk-svc-dddddddddddddddddddddddd', { budget: usdToNano(1) });
    await store.createKey(key);
    await store.settle([spend(key.id, 2)]);
    await Promise.all([notifier.checkKey(ORG, key.id), notifier.checkKey(ORG, key.id), notifier.checkKey(ORG, key.id)]);
    expect(mailer.sent).toHaveLength(1);
  });

  it('a failing relay never throws out of afterSettlement; the notice is retried after the claim window', async () => {
    const short = shortClaimNotifier();
    mailer.fail = true;
    const key = keyRecord(ORG, 'k', 'sk-svc-eeeeeeeeeeeeeeeeeeeeeeee', { budget: usdToNano(1) });
    await store.createKey(key);
    const e = spend(key.id, 2);
    await store.settle([e]);
    await atWindowStart();
    await expect(short.afterSettlement([e])).resolves.toBeUndefined();
    mailer.fail = false;
    await short.checkKey(ORG, key.id);
    expect(mailer.sent).toHaveLength(0);
    await new Promise((r) => setTimeout(r, WINDOW + 20));
    await short.checkKey(ORG, key.id);
    expect(mailer.sent).toHaveLength(1);
  });

  it('the sent-marker, not only the claim, stops repeats after the claim window', async () => {
    const short = shortClaimNotifier();
    const key = keyRecord(ORG, 'k', 'sk-svc-gggggggggggggggggggggggg', { budget: usdToNano(1) });
    await store.createKey(key);
    await store.settle([spend(key.id, 2)]);
    await short.checkKey(ORG, key.id);
    await new Promise((r) => setTimeout(r, WINDOW + 20));
    await short.checkKey(ORG, key.id);
    expect(mailer.sent).toHaveLength(1);
  });

  it('low balance: once per fall under the level', async () => {
    const key = keyRecord(ORG, 'k', 'sk-svc-ffffffffffffffffffffffff');
    await store.createKey(key);
    await settle(spend(key.id, 996));
    await settle(spend(key.id, 1));
    expect(mailer.sent.map((m) => m.subject)).toEqual(['[svc] Acme: Low credit balance: $4']);
  });
});
