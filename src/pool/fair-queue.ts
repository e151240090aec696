interface Job {
  start: () => void;
  /** Removes the job from its queue when the caller gives up before it started. */
  cancel: (() => void) | null;
}

interface Tenant {
  active: number;
  queue: Job[];
  /** Sequence number of this tenant's last job start (0 = never): the least recently served goes next. */
  served: number;
}

/**
 * What drops a queued job: a CallAbort (src/upstream/call-abort.ts). An AbortController's signal would do as
 * well but costs several microseconds and three new hidden classes to create (Node 20), once per score batch.
 */
export interface QueueSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  once(event: 'abort', listener: () => void): unknown;
  off(event: 'abort', listener: () => void): unknown;
}

/**
 * Fair admission to a fixed number of worker slots: at most `capacity` jobs run at once, at most
 * `perTenant` of them for one tenant (organization), and waiting tenants are served round robin, one job
 * per turn. One organization flooding the pool therefore waits behind itself while another organization's
 * job starts at the next free slot (at most one running job's duration away, and at once while fewer than
 * `capacity` jobs run). No job is dropped: a queued job leaves only when its signal aborts. The number of
 * tenants waiting at once is small (organizations with work in flight), so the pick is a linear scan.
 */
export class FairQueue {
  readonly #tenants = new Map<string, Tenant>();
  #active = 0;
  #seq = 0;

  constructor(
    private readonly capacity: number,
    private readonly perTenant: number,
  ) {}

  get active(): number {
    return this.#active;
  }
  /** Jobs started so far (all tenants). */
  get started(): number {
    return this.#seq;
  }
  get queued(): number {
    let n = 0;
    for (const t of this.#tenants.values()) n += t.queue.length;
    return n;
  }

  run<T>(tenant: string, task: () => Promise<T>, signal?: QueueSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<T>((resolve, reject) => {
      const t = this.#tenant(tenant);
      const job: Job = {
        cancel: null,
        start: () => {
          if (job.cancel) signal?.off('abort', job.cancel);
          t.active++;
          this.#active++;
          task()
            .then(resolve, reject)
            .finally(() => {
              t.active--;
              this.#active--;
              if (t.active === 0 && t.queue.length === 0) this.#tenants.delete(tenant);
              this.#pump();
            });
        },
      };
      if (signal) {
        job.cancel = () => {
          const i = t.queue.indexOf(job);
          if (i < 0) return;
          t.queue.splice(i, 1);
          if (t.active === 0 && t.queue.length === 0) this.#tenants.delete(tenant);
          reject(signal.reason);
        };
        signal.once('abort', job.cancel);
      }
      t.queue.push(job);
      this.#pump();
    });
  }

  #tenant(id: string): Tenant {
    let t = this.#tenants.get(id);
    if (!t) {
      t = { active: 0, queue: [], served: 0 };
      this.#tenants.set(id, t);
    }
    return t;
  }

  /** Starts queued jobs while slots are free: each time, the least recently served tenant under its share. */
  #pump(): void {
    while (this.#active < this.capacity) {
      let next: Tenant | null = null;
      for (const t of this.#tenants.values()) {
        if (t.queue.length > 0 && t.active < this.perTenant && (next === null || t.served < next.served)) next = t;
      }
      if (next === null) return;
      next.served = ++this.#seq;
      next.queue.shift()!.start();
    }
  }
}
