/** EndpointHealth.forget: an endpoint whose server was replaced (the dev simulator restarted) starts afresh. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_HEALTH, EndpointHealth } from '../../../src/routing/health.js';

describe('EndpointHealth.forget', () => {
  it('closes an open breaker and drops the estimates of that endpoint only', () => {
    let now = 1_000_000;
    const h = new EndpointHealth({ ...DEFAULT_HEALTH, now: () => now });
    h.success('sim', 40);
    for (let i = 0; i < DEFAULT_HEALTH.failureThreshold; i++) {
      h.failure('sim');
      h.failure('real');
    }
    h.success('other', 40);
    expect(h.state('sim')).toBe('open');
    expect(h.available('sim')).toBe(false);
    now += 1_000; // well inside the cooldown
    h.forget('sim');
    expect(h.state('sim')).toBe('closed');
    expect(h.available('sim')).toBe(true);
    expect(h.state('real')).toBe('open');
    expect(h.estimate('other')).toBe(40);
    expect(h.estimate('sim')).toBe(0); // unknown again: ranked first so it is measured afresh
  });
});
