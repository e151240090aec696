/**
 * The preflight chain as data (fastify's named lifecycle, undici's one-concern interceptors): a stage is
 * an object with a name, a `run` that reads and adds to the request's flow or refuses with a GatewayError,
 * and, when it takes something that must be given back, its own `undo`. A chain is a plain array; the
 * runner walks it and records how far it got, so a refusal (or an upstream failure before any answer)
 * undoes exactly the stages that ran, in reverse: release the hold, then the admission leases.
 * Stages are built once per route with their few collaborators; per request there is one flow object.
 */
export interface Stage<F> {
  readonly name: string;
  run(flow: F): Promise<void> | void;
  /** Gives back what `run` took. Never throws (a failed release is logged; holds and leases expire). */
  undo?(flow: F): Promise<void>;
}

/** What the runner keeps on every flow: how many stages of the chain completed. */
export interface Progress {
  passed: number;
}

/**
 * Runs the chain in order; stops at the first refusal (which propagates). A stage that finished synchronously
 * (returned nothing) is not awaited: no promise and microtask turn per synchronous stage.
 */
export async function runStages<F extends Progress>(stages: readonly Stage<F>[], flow: F): Promise<void> {
  for (let i = flow.passed; i < stages.length; i++) {
    const pending = stages[i]!.run(flow);
    if (pending !== undefined) await pending;
    flow.passed = i + 1;
  }
}

/** Undoes the completed stages in reverse order (idempotent: the flow forgets them as they are undone). */
export async function unwind<F extends Progress>(stages: readonly Stage<F>[], flow: F): Promise<void> {
  for (let i = flow.passed - 1; i >= 0; i--) {
    flow.passed = i;
    await stages[i]!.undo?.(flow);
  }
}

/** What deferring stages keep on the flow: the first refusal they met. */
export interface Deferring extends Progress {
  deferred: Error | null;
}

/**
 * Runs a validating stage before admission without letting it refuse there: its refusal (a GatewayError,
 * e.g. a malformed body or an unknown model) is kept and given by `refuseDeferred` after admission, so a
 * revoked or rate-limited key is told so whatever it sent, in the contract's order. A stage after a
 * deferred refusal is skipped (it would read what the failed stage did not produce).
 */
export function deferRefusal<F extends Deferring>(stage: Stage<F>, isRefusal: (e: unknown) => boolean): Stage<F> {
  return {
    name: stage.name,
    async run(f) {
      if (f.deferred) return;
      try {
        await stage.run(f);
      } catch (e) {
        if (!isRefusal(e)) throw e;
        f.deferred = e as Error;
      }
    },
  };
}

/** Gives the refusal a deferred stage met (placed right after admission). */
export const refuseDeferred: Stage<Deferring> = {
  name: 'refuse-deferred',
  run(f) {
    if (f.deferred) throw f.deferred;
  },
};
