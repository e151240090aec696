import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/fields.js';
import { availableParallelism } from 'node:os';
import { defaultMaxWorkers, loadConfig } from '../../../src/config/load.js';

describe('loadConfig', () => {
  it('defaults: memory store, demo catalog, ports 8080/8081', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.dashboardPort).toBe(8081);
    expect(c.store.kind).toBe('memory');
    expect(c.dev.bootstrap).toBe(false); // seeded credit and a printed key only when asked for (make run asks)
    expect(loadConfig({ SVC_DEV_BOOTSTRAP: 'true' }).dev.bootstrap).toBe(true);
    expect(c.models.length).toBeGreaterThan(5);
    expect(c.models.every((m) => m.pricing === null || m.pricing.input > 0)).toBe(true);
  });

  it('worker threads: none kept (started on demand), at most the cores the event loop leaves (1 on 2 cores); the file overrides', () => {
    expect([1, 2, 4, 8].map(defaultMaxWorkers)).toEqual([1, 1, 3, 7]);
    expect(loadConfig({}).workers).toEqual({ min: 0, max: defaultMaxWorkers(availableParallelism()) });
    expect(loadConfig({}, { workers: { min: 1 } }).workers).toEqual({ min: 1, max: defaultMaxWorkers(availableParallelism()) });
    expect(() => loadConfig({}, { workers: { min: -1 } })).toThrow(/workers\.min/);
    expect(() => loadConfig({}, { workers: { max: 0 } })).toThrow(/workers\.max/);
    expect(loadConfig({}, { workers: { min: 2, max: 4 } }).workers).toEqual({ min: 2, max: 4 });
    // An explicit min above the default max raises the max instead of refusing the file.
    expect(loadConfig({}, { workers: { min: 64 } }).workers).toEqual({ min: 64, max: 64 });
  });

  it('stored responses: 24 h and 100,000 per organization by default; the file sets both, within bounds', () => {
    expect(loadConfig({}).responses).toEqual({ ttlMs: 24 * 3_600_000, maxPerOrg: 100_000 });
    expect(loadConfig({}, { responses: { ttlMs: 3_600_000, maxPerOrg: 500 } }).responses).toEqual({ ttlMs: 3_600_000, maxPerOrg: 500 });
    expect(() => loadConfig({}, { responses: { maxPerOrg: 0 } })).toThrow(/responses\.maxPerOrg/);
    expect(() => loadConfig({}, { responses: { ttlMs: 10 } })).toThrow(/responses\.ttlMs/);
    expect(() => loadConfig({}, { responses: { keep: 1 } })).toThrow(/responses\.keep/);
  });

  it('SVC_REDIS_URL switches the store; env overrides the file', () => {
    const c = loadConfig({ SVC_REDIS_URL: 'redis://127.0.0.1:7000', SVC_PORT: '9999' }, { port: 1234 });
    expect(c.store).toMatchObject({ kind: 'redis', url: 'redis://127.0.0.1:7000' });
    expect(c.port).toBe(9999);
  });

  it('reports every bad field at once, each with its path', () => {
    let err: ConfigError | null = null;
    try {
      loadConfig(
        { SVC_PORT: 'eighty', SVC_DEV_KEY: 'pk-wrong' },
        {
          maxJsonDepth: 1,
          guardrails: { mode: 'loud', thresholds: { hate: 3, nonsense: 0.5 } },
          models: [
            { id: 'a', endpoints: [{ provider: 'openai', upstreamModel: 'x', baseUrl: 'ftp://x' }], pricing: { input: 0, output: 0 } },
            { id: 'a', endpoints: [] },
          ],
        },
      );
    } catch (e) {
      err = e as ConfigError;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const text = err!.problems.join('\n');
    for (const needle of [
      'SVC_PORT',
      'SVC_DEV_KEY',
      'maxJsonDepth',
      'guardrails.mode',
      'guardrails.thresholds.hate',
      'guardrails.thresholds.nonsense',
      'models[0].endpoints[0].baseUrl',
      'models[0].pricing: a priced model cannot be free',
      'models[1].id: duplicate',
      'models[1].endpoints',
    ]) {
      expect(text).toContain(needle);
    }
  });

  it('guardrails.secondStage: off by default; read and checked when given', () => {
    expect(loadConfig({}).guardrails.secondStage).toBeNull();
    const c = loadConfig({}, {
      guardrails: {
        timeoutMs: 300,
        secondStage: { endpoint: { provider: 'openai', upstreamModel: 'omni-moderation-latest', baseUrl: 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY' } },
      },
    });
    expect(c.guardrails.secondStage).toMatchObject({ band: { from: 0.5, to: 1.5 }, timeoutMs: 300, priceUsd: 0, endpoint: { provider: 'openai' } });
    let err: ConfigError | null = null;
    try {
      loadConfig({}, {
        guardrails: {
          timeoutMs: 300,
          secondStage: {
            endpoint: { provider: 'anthropic', upstreamModel: 'm', baseUrl: 'https://api.anthropic.com/v1', apiKeyEnv: null },
            band: { from: 1.2, to: 0.5 },
            timeoutMs: 1000,
            priceUsd: -1,
            extra: true,
          },
        },
      });
    } catch (e) {
      err = e as ConfigError;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const text = err!.problems.join('\n');
    for (const needle of [
      'guardrails.secondStage.endpoint.provider',
      'guardrails.secondStage.band.from',
      'guardrails.secondStage.band.to',
      'guardrails.secondStage.timeoutMs',
      'guardrails.secondStage.priceUsd',
      'guardrails.secondStage.extra: unknown field',
    ]) {
      expect(text).toContain(needle);
    }
  });
});
