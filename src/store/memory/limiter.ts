/**
 * Admission for the memory store, mirroring lua/admit.lua step for step: scopes are checked in the given
 * order (RPM, then TPM, then concurrency within a scope) and the first failure is reported; only when every
 * check passes is the request recorded in each window that has a limit and a lease taken where
 * maxConcurrency is set.
 */
import type { AdmitRequest, AdmitResult, LimitScope } from '../contract.js';
import { concurrencyRetryMs, getOr, WINDOW_MS } from '../shared.js';
import { LeaseSet, SlidingWindow } from './windows.js';

/** Idle state is swept only when this much older than the wall clock (callers may pass their own `now`). */
const SWEEP_GRACE_MS = 5 * WINDOW_MS;

type ScopeRef = Pick<LimitScope, 'source' | 'id'>;

function scopeId(orgId: string, s: ScopeRef): string {
  return `${orgId}\u0000${s.source}\u0000${s.id}`;
}

export class Limiter {
  readonly #rpm = new Map<string, SlidingWindow>();
  readonly #tpm = new Map<string, SlidingWindow>();
  readonly #leases = new Map<string, LeaseSet>();

  admit(req: AdmitRequest): AdmitResult {
    const { now } = req;
    for (const s of req.scopes) {
      const id = scopeId(req.orgId, s);
      if (s.rpm !== null) {
        const w = this.#rpm.get(id);
        w?.purge(now);
        const count = w?.count ?? 0;
        if (count >= s.rpm) {
          return { ok: false, kind: 'rpm', source: s.source, retryAfterMs: w?.rpmRetryMs(now) ?? WINDOW_MS };
        }
      }
      if (s.tpm !== null) {
        const w = this.#tpm.get(id);
        w?.purge(now);
        if ((w?.sum ?? 0) + req.tokens > s.tpm) {
          const retryAfterMs = w?.tpmRetryMs(now, req.tokens, s.tpm) ?? WINDOW_MS;
          return { ok: false, kind: 'tpm', source: s.source, retryAfterMs };
        }
      }
      if (s.maxConcurrency !== null) {
        const l = this.#leases.get(id);
        l?.purge(now);
        if ((l?.size ?? 0) >= s.maxConcurrency) {
          const retryAfterMs = concurrencyRetryMs(l?.earliestExpiry(), now);
          return { ok: false, kind: 'concurrency', source: s.source, retryAfterMs };
        }
      }
    }
    for (const s of req.scopes) {
      const id = scopeId(req.orgId, s);
      if (s.rpm !== null) getOr(this.#rpm, id, () => new SlidingWindow()).add(req.requestId, now, 0);
      if (s.tpm !== null) getOr(this.#tpm, id, () => new SlidingWindow()).add(req.requestId, now, req.tokens);
      if (s.maxConcurrency !== null) {
        getOr(this.#leases, id, () => new LeaseSet()).take(req.requestId, now + req.leaseTtlMs);
      }
    }
    return { ok: true };
  }

  correctTokens(orgId: string, s: ScopeRef, requestId: string, tokens: number): void {
    this.#tpm.get(scopeId(orgId, s))?.correct(requestId, tokens);
  }

  releaseLease(orgId: string, s: ScopeRef, requestId: string): void {
    this.#leases.get(scopeId(orgId, s))?.release(requestId);
  }

  /** Forgets windows and lease sets that have been idle well past their lifetime (Redis expires the keys). */
  sweep(wallNow: number): void {
    const horizon = wallNow - SWEEP_GRACE_MS;
    for (const windows of [this.#rpm, this.#tpm]) {
      for (const [id, w] of windows) if (w.newest + WINDOW_MS <= horizon) windows.delete(id);
    }
    for (const [id, l] of this.#leases) if (l.latestExpiry() <= horizon) this.#leases.delete(id);
  }
}
