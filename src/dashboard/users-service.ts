/**
 * Dashboard users and organization memberships, kept on the Store kv:
 *   user:<id>                  {id, email, passwordHash, createdAt}
 *   user-email:<lower email>   {id}
 *   member:<orgId>:<userId>    {orgId, userId, role, createdAt}
 *   org-members:<orgId>        [userId...]      user-orgs:<userId>  [orgId...]
 *   org-owners:<orgId>         [userId...]      (the Owners: the last one is kept by one atomic step)
 */
import { randomUUID } from 'node:crypto';
import { isEmailAddress } from '../events/channel-config.js';
import { GatewayError, invalid } from '../errors/gateway-error.js';
import type { Store } from '../store/contract.js';
import { claim, KvIndex } from './kv-index.js';
import { hashPassword, passwordProblem, verifyAgainstDummy, verifyPassword, weakPasswordProblem } from './passwords.js';

export const ROLES = ['owner', 'org_admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** Roles that may use the dashboard API of an organization (Authentication 5). */
export const ADMIN_ROLES: readonly Role[] = ['owner', 'org_admin'];

export function isRole(v: unknown): v is Role {
  return typeof v === 'string' && (ROLES as readonly string[]).includes(v);
}

export interface UserRecord {
  id: string;
  email: string;
  passwordHash: string;
  createdAt: number;
}

export interface Membership {
  orgId: string;
  userId: string;
  role: Role;
  createdAt: number;
}

export interface UserView {
  id: string;
  email: string;
}

const memberKey = (orgId: string, userId: string): string => `member:${orgId}:${userId}`;

export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

export class UsersService {
  readonly #orgMembers: KvIndex;
  readonly #userOrgs: KvIndex;

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {
    this.#orgMembers = new KvIndex(store, 'org-members');
    this.#userOrgs = new KvIndex(store, 'user-orgs');
  }

  async getUser(id: string): Promise<UserRecord | null> {
    return this.store.kvGet<UserRecord>(`user:${id}`);
  }

  async findByEmail(email: string): Promise<UserRecord | null> {
    const ref = await this.store.kvGet<{ id: string }>(`user-email:${normalEmail(email)}`);
    return ref === null ? null : this.getUser(ref.id);
  }

  /** Creates a user; 409 when the e-mail address is taken. */
  async createUser(emailIn: unknown, password: unknown): Promise<UserRecord> {
    if (typeof emailIn !== 'string' || !isEmailAddress(emailIn.trim())) throw invalid('email must be a valid e-mail address', 'email');
    const problem = passwordProblem(password);
    if (problem !== null) throw invalid(problem, 'password');
    const email = normalEmail(emailIn);
    const taken = (await this.findByEmail(email)) !== null || !(await claim(this.store, `user-email:${email}`));
    if (taken) throw new GatewayError('conflict', { message: 'A user with this e-mail address already exists.' });
    const user: UserRecord = { id: randomUUID(), email, passwordHash: await hashPassword(password as string), createdAt: this.now() };
    await this.store.kvSet(`user:${user.id}`, user);
    await this.store.kvSet(`user-email:${email}`, { id: user.id });
    return user;
  }

  /** 400 naming `password` when a password chosen through the dashboard is too weak for `email`. */
  checkNewPassword(password: unknown, email: string): void {
    const problem = weakPasswordProblem(password, email);
    if (problem !== null) throw invalid(problem, 'password');
  }

  /** The user when the password matches; null otherwise (same work either way). */
  async checkPassword(email: string, password: string): Promise<UserRecord | null> {
    const user = await this.findByEmail(email);
    if (user === null) return verifyAgainstDummy(password).then(() => null);
    return (await verifyPassword(password, user.passwordHash)) ? user : null;
  }

  async membership(orgId: string, userId: string): Promise<Membership | null> {
    return this.store.kvGet<Membership>(memberKey(orgId, userId));
  }

  /**
   * Takes the Owner role from `userId` unless that leaves `orgId` without one: check and removal are one
   * Store step (one Lua script on Redis), so two admins demoting the last two Owners at once cannot both
   * succeed (security hardening, finding 6). 409 when refused.
   */
  async #releaseOwner(orgId: string, userId: string): Promise<void> {
    const key = `org-owners:${orgId}`;
    // Organizations from before the owner set: seed it from the memberships once.
    if ((await this.store.setMembers(key)).length === 0) {
      for (const m of await this.members(orgId)) if (m.role === 'owner') await this.store.setAdd(key, m.userId);
    }
    if ((await this.store.setRemoveKeeping(key, userId, 1)) === 'refused') {
      throw new GatewayError('conflict', { message: 'An organization must keep at least one Owner.' });
    }
  }

  /** Adds or changes a membership; 409 when it would leave the organization without an Owner. */
  async setRole(orgId: string, userId: string, role: Role): Promise<Membership> {
    const prev = await this.membership(orgId, userId);
    if (role === 'owner') await this.store.setAdd(`org-owners:${orgId}`, userId);
    else if (prev?.role === 'owner') await this.#releaseOwner(orgId, userId);
    const m: Membership = { orgId, userId, role, createdAt: prev?.createdAt ?? this.now() };
    await this.store.kvSet(memberKey(orgId, userId), m);
    await this.#orgMembers.add(orgId, userId);
    await this.#userOrgs.add(userId, orgId);
    return m;
  }

  /** Removes a membership; 409 when it is the organization's last Owner. */
  async removeMember(orgId: string, userId: string): Promise<void> {
    if ((await this.membership(orgId, userId))?.role === 'owner') await this.#releaseOwner(orgId, userId);
    await this.store.kvDel(memberKey(orgId, userId));
    await this.#orgMembers.remove(orgId, userId);
    await this.#userOrgs.remove(userId, orgId);
  }

  async members(orgId: string): Promise<(Membership & { email: string })[]> {
    const out: (Membership & { email: string })[] = [];
    for (const userId of await this.#orgMembers.list(orgId)) {
      const [m, u] = await Promise.all([this.membership(orgId, userId), this.getUser(userId)]);
      if (m !== null && u !== null) out.push({ ...m, email: u.email });
    }
    return out;
  }

  async orgsOf(userId: string): Promise<Membership[]> {
    const out: Membership[] = [];
    for (const orgId of await this.#userOrgs.list(userId)) {
      const m = await this.membership(orgId, userId);
      if (m !== null) out.push(m);
    }
    return out;
  }

  /** E-mail addresses of the Owners and org_admins (recipients of budget and balance notices). */
  async adminEmails(orgId: string): Promise<string[]> {
    return (await this.members(orgId)).filter((m) => ADMIN_ROLES.includes(m.role)).map((m) => m.email);
  }
}

export function userView(u: UserRecord): UserView {
  return { id: u.id, email: u.email };
}
