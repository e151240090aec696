import { describe, expect, it } from 'vitest';
import { missingCredentials } from '../../../src/config/credentials.js';
import { ConfigError, type JsonObject } from '../../../src/config/fields.js';
import { loadConfig } from '../../../src/config/load.js';
import { DEMO_ALIASES, DEMO_CATALOG } from '../../../src/routing/demo-catalog.js';

const problemsOf = (file: JsonObject): string[] => {
  try {
    loadConfig({}, file);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
};

const acme = (over: JsonObject = {}): JsonObject => ({
  id: 'acme/small',
  pricing: { input: 0.1, output: 0.2 },
  endpoints: [{ provider: 'openai-compatible', upstreamModel: 'small', baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: null }],
  ...over,
});

describe('strict config: unknown providers and fields', () => {
  it('refuses a misspelled provider with the path, a suggestion and the known names', () => {
    const p = problemsOf({ models: [acme({ endpoints: [{ provider: 'opneai', upstreamModel: 'x', baseUrl: 'https://api.openai.com/v1' }] })] });
    expect(p).toHaveLength(1);
    expect(p[0]).toMatch(/^models\[0\]\.endpoints\[0\]\.provider: unknown provider "opneai" \(did you mean "openai"\?\) \(known: .*anthropic/);
  });

  it('refuses unknown fields at every depth, each with its full path', () => {
    const p = problemsOf({
      prot: 8080,
      store: { kind: 'memory', snapshot: 'x' },
      models: [
        acme(),
        acme({
          id: 'acme/other',
          endpoints: [{ provder: 'openai', provider: 'openai', upstreamModel: 'x', baseUrl: 'https://api.openai.com/v1' }],
          pricing: { input: 1, output: 2, cache_read: 0.5 },
        }),
      ],
      aliases: [{ id: 'fast', kind: 'fastest', models: ['acme/small'], weight: 2 }],
      guardrails: { mode: 'off', thresholds: { hate: 0.9 } },
    });
    expect(p).toEqual([
      'prot: unknown field (did you mean "port"?)',
      'store.snapshot: unknown field',
      'models[1].pricing.cache_read: unknown field (did you mean "cacheRead"?)',
      'models[1].endpoints[0].provder: unknown field (did you mean "provider"?)',
      'aliases[0].weight: unknown field',
    ]);
  });

  it('accepts every field the schema lists (open maps: endpoint headers, guardrail thresholds)', () => {
    expect(
      problemsOf({
        extends: 'builtin',
        models: [acme({ endpoints: [{ provider: 'openai', upstreamModel: 'x', baseUrl: 'https://api.openai.com/v1', apiKeyEnv: 'X', headers: { 'openai-project': 'p' }, timeouts: { connectMs: 10 } }] })],
        guardrails: { thresholds: { hate: 0.9 } },
        upstream: { connectMs: 100 },
        dev: { creditUsd: 5 },
      }),
    ).toEqual([]);
  });
});

describe('config extends the built-in catalog', () => {
  it('without extends, a file models list is the whole catalog (and the built-in aliases go with it)', () => {
    const c = loadConfig({}, { models: [acme()] });
    expect(c.models.map((m) => m.id)).toEqual(['acme/small']);
    expect(c.aliases).toEqual([]);
  });

  it('"extends": "builtin" keeps the nine built-in models and aliases, appends new ids, replaces same ids in place', () => {
    const cheaper = acme({ id: 'gpt-4o-mini', pricing: { input: 0.1, output: 0.5 } });
    const c = loadConfig({}, { extends: 'builtin', models: [acme(), cheaper] });
    expect(c.models.map((m) => m.id)).toEqual([...DEMO_CATALOG.map((m) => m.id), 'acme/small']);
    expect(c.models.find((m) => m.id === 'gpt-4o-mini')!.pricing).toEqual({ input: 0.1, output: 0.5 });
    expect(c.aliases.map((a) => a.id)).toEqual(DEMO_ALIASES.map((a) => a.id));
  });

  it('extended aliases merge by id and may name built-in and new models', () => {
    const c = loadConfig({}, { extends: 'builtin', models: [acme()], aliases: [{ id: 'fastest-gpt', kind: 'fastest', models: ['gpt-4o-mini', 'acme/small'] }] });
    expect(c.aliases.find((a) => a.id === 'fastest-gpt')).toEqual({ id: 'fastest-gpt', kind: 'fastest', models: ['gpt-4o-mini', 'acme/small'] });
    expect(c.aliases).toHaveLength(DEMO_ALIASES.length);
  });

  it('refuses an unknown extends value', () => {
    expect(problemsOf({ extends: 'demo' })).toEqual(['config.extends: expected one of builtin, got "demo"']);
  });
});

describe('missing credentials', () => {
  it('names each unset variable once, with the models that need it', () => {
    const missing = missingCredentials(DEMO_CATALOG, { OPENAI_API_KEY: 'sk-x', MISTRAL_API_KEY: '' });
    expect(missing.map((m) => m.variable).sort()).toEqual(['ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'MISTRAL_API_KEY']);
    expect(missing.find((m) => m.variable === 'ANTHROPIC_API_KEY')).toEqual({
      variable: 'ANTHROPIC_API_KEY',
      models: ['anthropic/claude-sonnet-4', 'anthropic/claude-3.5-haiku'],
      endpoints: ['anthropic@api.anthropic.com'],
    });
    expect(missingCredentials([loadConfig({}, { models: [acme()] }).models[0]!], {})).toEqual([]);
  });
});
