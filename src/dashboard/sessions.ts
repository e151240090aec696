/**
 * Server-side sessions. The browser holds an opaque random id in an HttpOnly, SameSite=Lax cookie (Secure
 * unless turned off for plain-HTTP local development); the Store holds `session:<sha256(id)>` with the
 * expiry, so a dump of the store yields no usable cookie.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Store } from '../store/contract.js';

export const SESSION_COOKIE = 'svc_session';

export interface SessionRecord {
  userId: string;
  createdAt: number;
  expiresAt: number;
}

export interface Session extends SessionRecord {
  id: string;
}

const storeKey = (id: string): string => `session:${createHash('sha256').update(id).digest('hex')}`;

export class Sessions {
  constructor(
    private readonly store: Store,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  async create(userId: string): Promise<Session> {
    const id = randomBytes(32).toString('base64url');
    const createdAt = this.now();
    const rec: SessionRecord = { userId, createdAt, expiresAt: createdAt + this.ttlMs };
    await this.store.kvSet(storeKey(id), rec, this.ttlMs);
    return { id, ...rec };
  }

  /** The live session for a cookie value; null when unknown or expired (an expired one is deleted). */
  async get(id: string): Promise<Session | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
    const rec = await this.store.kvGet<SessionRecord>(storeKey(id));
    if (rec === null) return null;
    if (rec.expiresAt <= this.now()) {
      await this.store.kvDel(storeKey(id));
      return null;
    }
    return { id, ...rec };
  }

  async destroy(id: string): Promise<void> {
    await this.store.kvDel(storeKey(id));
  }

  cookie(id: string, secure: boolean): string {
    const maxAge = Math.floor(this.ttlMs / 1000);
    return `${SESSION_COOKIE}=${id}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
  }

  clearCookie(secure: boolean): string {
    return `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
  }
}

/** The session id from a Cookie header, or null. */
export function sessionIdFrom(cookieHeader: string | undefined): string | null {
  if (cookieHeader === undefined) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim();
  }
  return null;
}
