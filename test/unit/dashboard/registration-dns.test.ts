import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkPublicHttpsUrl, type UrlGuard } from '../../../src/dashboard/webhooks-service.js';
import { GatewayError } from '../../../src/errors/gateway-error.js';

/** A resolver that never answers: only the deadline's abort ends the wait. */
const hangingGuard = {
  resolveAndCheck: (_url: URL, signal?: AbortSignal) =>
    new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason))),
  request: () => Promise.resolve({ kind: 'response' as const, status: 200 }),
} as unknown as UrlGuard;

afterEach(() => {
  vi.useRealTimers();
});

describe('registration-time DNS', () => {
  it('a resolver that never answers is refused 400 after the deadline, not waited on forever', async () => {
    vi.useFakeTimers();
    const pending = checkPublicHttpsUrl(hangingGuard, 'https://slow.example.com/hook', 'url');
    const settled = pending.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5_001);
    const err = await settled;
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).status).toBe(400);
    expect((err as GatewayError).message).toContain('could not be resolved within 5000 ms');
  });
});
