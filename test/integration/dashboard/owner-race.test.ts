/**
 * Security hardening, finding 6: the keep-at-least-one-Owner rule holds under concurrency on Redis. Two
 * dashboard nodes share one Redis; the two Owners of an organization remove (or demote) each other at the
 * same moment, on different nodes. Exactly one change may win: the check and the change are one Lua step.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDashboard, type Dashboard } from '../../../src/dashboard/index.js';
import { Logger } from '../../../src/obs/logger.js';
import type { Store } from '../../../src/store/contract.js';
import { createStore } from '../../../src/store/index.js';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';
import { PASSWORD } from './harness.js';

const ORIGIN = 'https://dash.test';

let redis: RedisServer;
const stores: Store[] = [];
const nodes: Dashboard[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  for (let i = 0; i < 2; i++) {
    const store = await createStore({ kind: 'redis', url: redis.url });
    stores.push(store);
    nodes.push(
      await startDashboard(
        { config: { serviceName: 'svc', maxBodyBytes: 65_536, defaultFallbacks: [] }, store, logger: new Logger('error', true, () => undefined) },
        { host: '127.0.0.1', port: 0, origin: ORIGIN, secureCookies: true },
      ),
    );
  }
});

afterAll(async () => {
  for (const n of nodes) await n.close();
  for (const s of stores) await s.close();
  await redis?.stop();
});

async function orgWithTwoOwners(round: number): Promise<{ orgId: string; owners: { id: string; cookie: string }[] }> {
  const s = nodes[0]!.services;
  const org = await s.orgs.create(`race ${round}`);
  const owners = [];
  for (const who of ['a', 'b']) {
    const u = await s.users.createUser(`${who}.${round}.${Date.now()}@race.test`, PASSWORD);
    await s.users.setRole(org.id, u.id, 'owner');
    owners.push({ id: u.id, cookie: `svc_session=${(await s.sessions.create(u.id)).id}` });
  }
  return { orgId: org.id, owners };
}

async function call(node: Dashboard, method: 'DELETE' | 'POST', path: string, cookie: string, body?: unknown): Promise<number> {
  const res = await request(`http://127.0.0.1:${node.port}${path}`, {
    method,
    headers: { cookie, origin: ORIGIN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await res.body.text();
  return res.statusCode;
}

describe('finding 6: the last Owner, atomically on Redis', () => {
  it('two Owners removing each other at once on two nodes: never both, one Owner always remains', async () => {
    for (let round = 0; round < 12; round++) {
      const { orgId, owners } = await orgWithTwoOwners(round);
      const [a, b] = owners as [{ id: string; cookie: string }, { id: string; cookie: string }];
      const statuses = await Promise.all(
        round % 2 === 0
          ? [call(nodes[0]!, 'DELETE', `/api/members?orgId=${orgId}&userId=${b.id}`, a.cookie), call(nodes[1]!, 'DELETE', `/api/members?orgId=${orgId}&userId=${a.id}`, b.cookie)]
          : [
              call(nodes[0]!, 'POST', `/api/members?orgId=${orgId}`, a.cookie, { email: (await nodes[0]!.services.users.getUser(b.id))!.email, role: 'member' }),
              call(nodes[1]!, 'POST', `/api/members?orgId=${orgId}`, b.cookie, { email: (await nodes[0]!.services.users.getUser(a.id))!.email, role: 'member' }),
            ],
      );
      expect(statuses.filter((s) => s === 200), `round ${round}: ${statuses.join(',')}`).toHaveLength(1);
      expect(statuses.filter((s) => s !== 200).every((s) => s === 409 || s === 403), `round ${round}: ${statuses.join(',')}`).toBe(true);
      const members = await nodes[1]!.services.users.members(orgId);
      expect(members.filter((m) => m.role === 'owner'), `round ${round}`).toHaveLength(1);
    }
  });
});
