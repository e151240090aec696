/**
 * Organization invitations: the only way a dashboard admin brings a person into an organization (security
 * hardening, finding 1). An admin never chooses a password for anyone and never learns whether an address
 * already has an account: the invitee receives a single-use, expiring link by e-mail and
 *   - a new user sets the password when accepting (the account is created then, owned by the mailbox), or
 *   - an existing user signs in and accepts; the membership exists only from that moment on.
 * Stored on the Store kv, the token only as its SHA-256:
 *   invite:<sha256(token)>    {id, orgId, email, role, invitedBy, createdAt, expiresAt}   (TTL = expiry)
 *   invite-id:<id>            {hash}                                                     (TTL = expiry)
 *   org-invites:<orgId>       [id...]
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { isEmailAddress } from '../events/channel-config.js';
import { GatewayError, invalid } from '../errors/gateway-error.js';
import type { Store } from '../store/contract.js';
import { claim, KvIndex } from './kv-index.js';
import type { Mailer } from './smtp-client.js';
import { plainText } from './validate.js';
import { normalEmail, type Role, type UserRecord, type UsersService } from './users-service.js';

export const INVITATION_TTL_MS = 72 * 3_600_000;
/** Invitations one organization may send per hour (each is an e-mail to an address the admin typed). */
export const INVITATIONS_PER_ORG_PER_HOUR = 30;

export interface InvitationRecord {
  id: string;
  orgId: string;
  email: string;
  role: Role;
  invitedBy: string;
  createdAt: number;
  expiresAt: number;
}

export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  status: 'pending';
  created_at: string;
  expires_at: string;
}

export function invitationView(i: InvitationRecord): InvitationView {
  return {
    id: i.id,
    email: i.email,
    role: i.role,
    status: 'pending',
    created_at: new Date(i.createdAt).toISOString(),
    expires_at: new Date(i.expiresAt).toISOString(),
  };
}

const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface InvitationDeps {
  store: Store;
  users: UsersService;
  mailer: Mailer | null;
  /** The dashboard origin the accept link points at. */
  origin: string;
  serviceName: string;
  now: () => number;
}

export type Acceptance = { kind: 'created'; user: UserRecord } | { kind: 'joined'; user: UserRecord };

export class InvitationsService {
  readonly #index: KvIndex;

  constructor(private readonly deps: InvitationDeps) {
    this.#index = new KvIndex(deps.store, 'org-invites');
  }

  /**
   * Creates an invitation and e-mails its link. The answer is the same whether or not the address has an
   * account (no user directory across tenants). 503 when no mailer is configured: without e-mail there is
   * no channel the invitee alone controls.
   */
  async invite(orgId: string, orgName: string, emailIn: unknown, role: Role, invitedBy: string): Promise<InvitationRecord> {
    if (typeof emailIn !== 'string' || !isEmailAddress(emailIn.trim())) throw invalid('email must be a valid e-mail address', 'email');
    const mailer = this.deps.mailer;
    if (mailer === null) {
      throw new GatewayError('service_unavailable', { message: 'Invitations are sent by e-mail and no SMTP relay is configured (SVC_SMTP_HOST).' });
    }
    if ((await this.deps.store.hit(`invites:${orgId}`, 3_600_000)) > INVITATIONS_PER_ORG_PER_HOUR) {
      throw new GatewayError('rate_limit_exceeded', { message: `At most ${INVITATIONS_PER_ORG_PER_HOUR} invitations per organization per hour.` });
    }
    const now = this.deps.now();
    const token = randomBytes(32).toString('base64url');
    const rec: InvitationRecord = { id: randomUUID(), orgId, email: normalEmail(emailIn), role, invitedBy, createdAt: now, expiresAt: now + INVITATION_TTL_MS };
    const hash = tokenHash(token);
    await this.deps.store.kvSet(`invite:${hash}`, rec, INVITATION_TTL_MS);
    await this.deps.store.kvSet(`invite-id:${rec.id}`, { hash }, INVITATION_TTL_MS);
    await this.#index.add(orgId, rec.id);
    const link = `${this.deps.origin}/accept-invitation?token=${token}`;
    await mailer.send({
      to: [rec.email],
      subject: `[${this.deps.serviceName}] Invitation to ${plainText(orgName)}`,
      text: [
        `You were invited to join the organization "${plainText(orgName)}" on ${this.deps.serviceName} as ${role}.`,
        '',
        'To accept, open this link (it works once and expires in 72 hours):',
        link,
        '',
        'If you already have an account, sign in first; otherwise you choose your password there.',
        'If you did not expect this invitation, ignore this message: nothing happens until it is accepted.',
      ].join('\n'),
    });
    return rec;
  }

  async pending(orgId: string): Promise<InvitationRecord[]> {
    const out: InvitationRecord[] = [];
    for (const id of await this.#index.list(orgId)) {
      const rec = await this.#byId(id);
      if (rec === null || rec.orgId !== orgId) await this.#index.remove(orgId, id);
      else out.push(rec);
    }
    return out.sort((a, b) => a.createdAt - b.createdAt);
  }

  async #byId(id: string): Promise<InvitationRecord | null> {
    const ref = await this.deps.store.kvGet<{ hash: string }>(`invite-id:${id}`);
    if (ref === null) return null;
    const rec = await this.deps.store.kvGet<InvitationRecord>(`invite:${ref.hash}`);
    return rec !== null && rec.expiresAt > this.deps.now() ? rec : null;
  }

  /** Revokes a pending invitation of `orgId`; false when there is none with that id. */
  async revoke(orgId: string, id: string): Promise<boolean> {
    const ref = await this.deps.store.kvGet<{ hash: string }>(`invite-id:${id}`);
    const rec = ref === null ? null : await this.deps.store.kvGet<InvitationRecord>(`invite:${ref.hash}`);
    if (ref === null || rec === null || rec.orgId !== orgId) return false;
    await this.#drop(rec, ref.hash);
    return true;
  }

  async #drop(rec: InvitationRecord, hash: string): Promise<void> {
    await this.deps.store.kvDel(`invite:${hash}`);
    await this.deps.store.kvDel(`invite-id:${rec.id}`);
    await this.#index.remove(rec.orgId, rec.id);
  }

  /** The live invitation for a token; 404 for unknown, used, revoked or expired tokens alike. */
  async #lookup(token: unknown): Promise<{ rec: InvitationRecord; hash: string }> {
    if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(token)) throw invalid('token must be the token from the invitation link', 'token');
    const hash = tokenHash(token);
    const rec = await this.deps.store.kvGet<InvitationRecord>(`invite:${hash}`);
    if (rec === null || rec.expiresAt <= this.deps.now()) {
      throw new GatewayError('not_found', { message: 'This invitation is unknown, expired, revoked or already used.' });
    }
    return { rec, hash };
  }

  /**
   * Accepts an invitation. `sessionUser` is the signed-in user, if any. The address's owner decides:
   *   - no account yet: `password` sets it and the account is created (a session user is ignored);
   *   - an account exists: the invitee must be signed in as that account (401 otherwise); no password.
   * Single use: the first acceptance claims the token atomically; a replay is 404.
   */
  async accept(token: unknown, password: unknown, sessionUser: UserRecord | null): Promise<{ rec: InvitationRecord; acceptance: Acceptance }> {
    const { rec, hash } = await this.#lookup(token);
    const existing = await this.deps.users.findByEmail(rec.email);
    if (existing !== null) {
      if (sessionUser === null || sessionUser.id !== existing.id) {
        throw new GatewayError('session_required', { message: 'Sign in as the invited user to accept this invitation.' });
      }
      if (password !== undefined) throw invalid('You already have an account; accept while signed in, without a password.', 'password');
    } else {
      // Checked before the token is spent, so a weak password can be corrected with the same link.
      this.deps.users.checkNewPassword(password, rec.email);
    }
    if (!(await claim(this.deps.store, `invite-used:${hash}`, INVITATION_TTL_MS + 60_000))) {
      throw new GatewayError('not_found', { message: 'This invitation is unknown, expired, revoked or already used.' });
    }
    await this.#drop(rec, hash);
    const user = existing ?? (await this.deps.users.createUser(rec.email, password));
    // Someone who became a member meanwhile keeps the role they have (an invitation never demotes).
    if ((await this.deps.users.membership(rec.orgId, user.id)) === null) await this.deps.users.setRole(rec.orgId, user.id, rec.role);
    return { rec, acceptance: { kind: existing === null ? 'created' : 'joined', user } };
  }
}
