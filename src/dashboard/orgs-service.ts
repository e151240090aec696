/** Organizations and the first-start bootstrap of an Owner (env or CLI). */
import { randomUUID } from 'node:crypto';
import { GatewayError, invalid } from '../errors/gateway-error.js';
import type { CacheInvalidator } from './cache-invalidation.js';
import { name as validName } from './validate.js';
import type { OrgRecord, Store } from '../store/contract.js';
import type { BootstrapOwner } from './config.js';
import type { UserRecord, UsersService } from './users-service.js';

export class OrgsService {
  constructor(
    private readonly store: Store,
    private readonly users: UsersService,
    private readonly now: () => number,
    private readonly defaultFallbacks: readonly string[],
    private readonly invalidate: CacheInvalidator,
  ) {}

  async create(name: unknown): Promise<OrgRecord> {
    if (typeof name !== 'string' || name.trim() === '' || name.length > 200) throw invalid('name must be 1 to 200 characters', 'name');
    validName({ name }, 'name', { max: 200 });
    const org: OrgRecord = {
      id: randomUUID(),
      name: name.trim(),
      status: 'active',
      createdAt: this.now(),
      fallbacks: [...this.defaultFallbacks],
      rpm: null,
      tpm: null,
      maxConcurrency: null,
      priceCeilingPerMTok: null,
    };
    await this.store.createOrg(org);
    return org;
  }

  async get(orgId: string): Promise<OrgRecord | null> {
    return this.store.getOrg(orgId);
  }

  /** Changes the organization (404 when there is none) and evicts its keys from every gateway's key cache. */
  async update(orgId: string, patch: Parameters<Store['updateOrg']>[1]): Promise<OrgRecord> {
    const org = await this.store.updateOrg(orgId, patch);
    if (org === null) throw new GatewayError('not_found', { message: `organization ${orgId} not found` });
    await this.invalidate.org(orgId);
    return org;
  }

  /**
   * Creates the first Owner and organization once: when a user with that e-mail already exists nothing
   * happens (a restart with the same env is a no-op, and a changed password in env never overwrites one).
   */
  async bootstrap(b: BootstrapOwner): Promise<{ created: false } | { created: true; user: UserRecord; org: OrgRecord }> {
    if ((await this.users.findByEmail(b.email)) !== null) return { created: false };
    const user = await this.users.createUser(b.email, b.password);
    const org = await this.create(b.orgName);
    await this.users.setRole(org.id, user.id, 'owner');
    return { created: true, user, org };
  }
}
