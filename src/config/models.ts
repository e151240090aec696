import type { AliasConfig, AutoTier, EndpointConfig, ModelConfig, ModelPricing } from './schema.js';
import { didYouMean, type FieldReader, type Json } from './fields.js';

const MAX_PRICE_PER_MTOK = 10_000;

function readPricing(r: FieldReader, raw: Json | undefined, path: string): ModelPricing | null {
  if (raw === null) return null;
  const p = r.obj(raw, path);
  const pricing: ModelPricing = {
    input: r.num(p, 'input', path, NaN, 0, MAX_PRICE_PER_MTOK),
    output: r.num(p, 'output', path, NaN, 0, MAX_PRICE_PER_MTOK),
  };
  if (p.input === undefined) r.problems.push(`${path}.input: required (USD per million input tokens)`);
  if (p.output === undefined) r.problems.push(`${path}.output: required (USD per million output tokens)`);
  if (p.cacheRead !== undefined) pricing.cacheRead = r.num(p, 'cacheRead', path, 0, 0, MAX_PRICE_PER_MTOK);
  if (p.cacheWrite !== undefined) pricing.cacheWrite = r.num(p, 'cacheWrite', path, 0, 0, MAX_PRICE_PER_MTOK);
  if (pricing.input === 0 && pricing.output === 0) r.problems.push(`${path}: a priced model cannot be free`);
  return pricing;
}

export function readEndpoint(r: FieldReader, raw: Json, path: string, providers: readonly string[]): EndpointConfig {
  const e = r.obj(raw, path);
  const baseUrl = r.str(e, 'baseUrl', path, '');
  if (baseUrl) {
    try {
      const u = new URL(baseUrl);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') r.problems.push(`${path}.baseUrl: must be http(s)`);
    } catch {
      r.problems.push(`${path}.baseUrl: not a URL: ${JSON.stringify(baseUrl)}`);
    }
  } else r.problems.push(`${path}.baseUrl: required`);
  const ep: EndpointConfig = {
    provider: r.str(e, 'provider', path, ''),
    upstreamModel: r.str(e, 'upstreamModel', path, ''),
    baseUrl,
    apiKeyEnv: r.optStr(e, 'apiKeyEnv', path),
  };
  if (!ep.provider) r.problems.push(`${path}.provider: required`);
  else if (!providers.includes(ep.provider)) {
    // An unknown name would otherwise reach no adapter (503) or, in dev mode, be quietly simulated.
    r.problems.push(
      `${path}.provider: unknown provider ${JSON.stringify(ep.provider)}${didYouMean(ep.provider, providers)} (known: ${providers.join(', ')})`,
    );
  }
  if (!ep.upstreamModel) r.problems.push(`${path}.upstreamModel: required`);
  if (e.timeouts !== undefined) {
    const t = r.obj(e.timeouts, `${path}.timeouts`);
    const tp = `${path}.timeouts`;
    ep.timeouts = {};
    for (const k of ['connectMs', 'firstByteMs', 'idleMs', 'totalMs'] as const) {
      if (t[k] !== undefined) ep.timeouts[k] = r.int(t, k, tp, 0, 1, 3_600_000);
    }
  }
  if (e.headers !== undefined) {
    const h = r.obj(e.headers, `${path}.headers`);
    ep.headers = {};
    for (const [k, v] of Object.entries(h)) {
      if (typeof v !== 'string' || !/^[a-z0-9-]+$/i.test(k)) r.problems.push(`${path}.headers.${k}: expected a string header value`);
      else ep.headers[k.toLowerCase()] = v;
    }
  }
  return ep;
}

/** Validates a model catalog (array of model entries); ids must be unique; providers must be registered. */
export function readModels(
  r: FieldReader,
  raw: Json | undefined,
  path: string,
  def: ModelConfig[],
  providers: readonly string[],
): ModelConfig[] {
  if (raw === undefined) return def;
  if (!Array.isArray(raw)) {
    r.problems.push(`${path}: expected an array of models`);
    return def;
  }
  const seen = new Set<string>();
  return raw.map((m, i) => {
    const p = `${path}[${i}]`;
    const o = r.obj(m, p);
    const id = r.str(o, 'id', p, '');
    if (!id) r.problems.push(`${p}.id: required`);
    else if (seen.has(id)) r.problems.push(`${p}.id: duplicate model id ${JSON.stringify(id)}`);
    seen.add(id);
    const endpointsRaw = o.endpoints;
    const endpoints = Array.isArray(endpointsRaw)
      ? endpointsRaw.map((e, j) => readEndpoint(r, e, `${p}.endpoints[${j}]`, providers))
      : [];
    if (endpoints.length === 0) r.problems.push(`${p}.endpoints: at least one endpoint required`);
    return {
      id,
      ownedBy: r.str(o, 'ownedBy', p, 'unknown'),
      created: r.int(o, 'created', p, Math.floor(Date.now() / 1000), 0),
      contextLength: r.int(o, 'contextLength', p, 8192, 1),
      maxOutput: r.int(o, 'maxOutput', p, 4096, 1),
      pricing: readPricing(r, o.pricing === undefined ? {} : o.pricing, `${p}.pricing`),
      endpoints,
    };
  });
}

const TIERS: readonly AutoTier[] = ['simple', 'tools', 'long', 'reasoning'];

/** Validates router aliases: every referenced model must exist; alias ids must not shadow models. */
export function readAliases(r: FieldReader, raw: Json | undefined, path: string, def: AliasConfig[], models: ModelConfig[]): AliasConfig[] {
  const list = raw === undefined ? def : raw;
  if (!Array.isArray(list)) {
    r.problems.push(`${path}: expected an array of aliases`);
    return def;
  }
  const ids = new Set(models.map((m) => m.id));
  const known = (id: string, p: string): void => {
    if (!ids.has(id)) r.problems.push(`${p}: unknown model ${JSON.stringify(id)}`);
  };
  return (list as (Json | AliasConfig)[]).map((a, i) => {
    const p = `${path}[${i}]`;
    const o = r.obj(a as Json, p);
    const id = r.str(o, 'id', p, '');
    if (ids.has(id)) r.problems.push(`${p}.id: ${JSON.stringify(id)} is also a model id`);
    const kind = r.oneOf(o, 'kind', p, 'fastest', ['fastest', 'auto'] as const);
    if (kind === 'fastest') {
      const fam = r.strList(o, 'models', p, []);
      if (fam.length === 0) r.problems.push(`${p}.models: at least one model`);
      fam.forEach((m, j) => known(m, `${p}.models[${j}]`));
      return { id, kind, models: fam };
    }
    const t = r.obj(o.tiers, `${p}.tiers`);
    const tiers = {} as Record<AutoTier, string[]>;
    for (const tier of TIERS) {
      tiers[tier] = r.strList(t, tier, `${p}.tiers`, []);
      if (tiers[tier].length === 0) r.problems.push(`${p}.tiers.${tier}: at least one model`);
      tiers[tier].forEach((m, j) => known(m, `${p}.tiers.${tier}[${j}]`));
    }
    return { id, kind, tiers };
  });
}

/** Merges by id: an entry of `over` replaces the `base` entry with its id (in place); new ids are appended. */
export function mergeById<T extends { id: string }>(base: readonly T[], over: readonly T[]): T[] {
  const byId = new Map(over.map((x) => [x.id, x]));
  const merged = base.map((x) => byId.get(x.id) ?? x);
  const baseIds = new Set(base.map((x) => x.id));
  return [...merged, ...over.filter((x) => !baseIds.has(x.id))];
}
