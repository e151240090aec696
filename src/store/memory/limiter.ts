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

/**
 * Per-scope state by org, source and id in nested maps. One joined string per lookup (`org\0source\0id`) was a new
 * string that V8 hashed in full, four times per request (admission's check and record, settlement's correction and
 * release); the org and key ids are strings whose hash V8 has kept.
 */
class ScopeMap<T> {
  readonly #orgs = new Map<string, Map<string, Map<string, T>>>();

  get(orgId: string, s: ScopeRef): T | undefined {
    return this.#orgs.get(orgId)?.get(s.source)?.get(s.id);
  }

  getOr(orgId: string, s: ScopeRef, make: () => T): T {
    const sources = getOr(this.#orgs, orgId, () => new Map<string, Map<string, T>>());
    return getOr(getOr(sources, s.source, () => new Map<string, T>()), s.id, make);
  }

  get size(): number {
    let n = 0;
    for (const sources of this.#orgs.values()) for (const ids of sources.values()) n += ids.size;
    return n;
  }

  /** Deletes every value `stale` says is (and the maps left empty). */
  sweep(stale: (v: T) => boolean): void {
    for (const [orgId, sources] of this.#orgs) {
      for (const [source, ids] of sources) {
        for (const [id, v] of ids) if (stale(v)) ids.delete(id);
        if (ids.size === 0) sources.delete(source);
      }
      if (sources.size === 0) this.#orgs.delete(orgId);
    }
  }
}

export class Limiter {
  readonly #rpm = new ScopeMap<SlidingWindow>();
  readonly #tpm = new ScopeMap<SlidingWindow>();
  readonly #leases = new ScopeMap<LeaseSet>();

  admit(req: AdmitRequest): AdmitResult {
    const { now } = req;
    const { orgId } = req;
    for (const s of req.scopes) {
      if (s.rpm !== null) {
        const w = this.#rpm.get(orgId, s);
        w?.purge(now);
        const count = w?.count ?? 0;
        if (count >= s.rpm) {
          return { ok: false, kind: 'rpm', source: s.source, retryAfterMs: w?.rpmRetryMs(now) ?? WINDOW_MS };
        }
      }
      if (s.tpm !== null) {
        const w = this.#tpm.get(orgId, s);
        w?.purge(now);
        if ((w?.sum ?? 0) + req.tokens > s.tpm) {
          const retryAfterMs = w?.tpmRetryMs(now, req.tokens, s.tpm) ?? WINDOW_MS;
          return { ok: false, kind: 'tpm', source: s.source, retryAfterMs };
        }
      }
      if (s.maxConcurrency !== null) {
        const l = this.#leases.get(orgId, s);
        l?.purge(now);
        if ((l?.size ?? 0) >= s.maxConcurrency) {
          const retryAfterMs = concurrencyRetryMs(l?.earliestExpiry(), now);
          return { ok: false, kind: 'concurrency', source: s.source, retryAfterMs };
        }
      }
    }
    for (const s of req.scopes) {
      if (s.rpm !== null) this.#rpm.getOr(orgId, s, () => new SlidingWindow()).add(req.requestId, now, 0);
      if (s.tpm !== null) this.#tpm.getOr(orgId, s, () => new SlidingWindow()).add(req.requestId, now, req.tokens);
      if (s.maxConcurrency !== null) {
        this.#leases.getOr(orgId, s, () => new LeaseSet()).take(req.requestId, now + req.leaseTtlMs);
      }
    }
    return { ok: true };
  }

  correctTokens(orgId: string, s: ScopeRef, requestId: string, tokens: number): void {
    this.#tpm.get(orgId, s)?.correct(requestId, tokens);
  }

  releaseLease(orgId: string, s: ScopeRef, requestId: string): void {
    this.#leases.get(orgId, s)?.release(requestId);
  }

  /** Windows and lease sets held (the memory the sweep bounds). */
  get stateCount(): number {
    return this.#rpm.size + this.#tpm.size + this.#leases.size;
  }

  /** Forgets windows and lease sets that have been idle well past their lifetime (Redis expires the keys). */
  sweep(wallNow: number): void {
    const horizon = wallNow - SWEEP_GRACE_MS;
    for (const windows of [this.#rpm, this.#tpm]) windows.sweep((w) => w.newest + WINDOW_MS <= horizon);
    this.#leases.sweep((l) => l.latestExpiry() <= horizon);
  }
}
