import type { AliasConfig, ModelConfig } from '../config/schema.js';
import type { KeyRecord } from '../store/contract.js';

export interface ModelView {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
}

export interface ModelDetailView extends ModelView {
  context_length: number;
  pricing: { prompt: string; completion: string; image: string; request: string } | null;
}

/** USD per token as a decimal string (per-million list price / 1e6), e.g. 2.5 -> "0.0000025". */
function perToken(perMillion: number): string {
  const s = (perMillion / 1e6).toFixed(15);
  return s.replace(/0+$/, '').replace(/\.$/, '') || '0';
}

/** The model catalog: immutable once built; a reload builds a new Catalog and swaps it in. */
export class Catalog {
  readonly #byId: Map<string, ModelConfig>;
  readonly #aliases: Map<string, AliasConfig>;
  /** Other names of a model: see `otherNames`. */
  readonly #byOtherName: Map<string, ModelConfig>;

  constructor(
    readonly models: readonly ModelConfig[],
    aliases: readonly AliasConfig[] = [],
  ) {
    this.#byId = new Map(models.map((m) => [m.id, m]));
    this.#aliases = new Map(aliases.map((a) => [a.id, a]));
    this.#byOtherName = otherNames(models, this.#byId, this.#aliases);
  }

  /** A router alias the key may use (it can route to at least one of its models). */
  alias(id: string, key: Pick<KeyRecord, 'allowedModels'>): AliasConfig | undefined {
    const a = this.#aliases.get(id);
    if (!a) return undefined;
    return aliasModels(a).some((m) => this.routable(m, key)) ? a : undefined;
  }

  visibleAliases(key: Pick<KeyRecord, 'allowedModels'>): AliasConfig[] {
    return [...this.#aliases.values()].filter((a) => this.alias(a.id, key));
  }

  /** Alias detail: reveals no candidates and no chain. */
  static aliasView(a: AliasConfig, created: number): ModelView {
    return { id: a.id, object: 'model', created, owned_by: 'svc' };
  }

  /** The model by its id or, failing that, by one of its other names (a dated upstream id, the bare name). */
  get(id: string): ModelConfig | undefined {
    return this.#byId.get(id) ?? this.#byOtherName.get(id);
  }

  /** The model if it exists and the key may route to it; undefined otherwise (reported as model_not_found). */
  routable(id: string, key: Pick<KeyRecord, 'allowedModels'>): ModelConfig | undefined {
    const m = this.get(id);
    if (!m) return undefined;
    if (key.allowedModels !== null && !key.allowedModels.includes(m.id)) return undefined;
    return m;
  }

  visible(key: Pick<KeyRecord, 'allowedModels'>): ModelConfig[] {
    return this.models.filter((m) => key.allowedModels === null || key.allowedModels.includes(m.id));
  }

  static view(m: ModelConfig): ModelView {
    return { id: m.id, object: 'model', created: m.created, owned_by: m.ownedBy };
  }

  static detail(m: ModelConfig): ModelDetailView {
    return {
      ...Catalog.view(m),
      context_length: m.contextLength,
      pricing: m.pricing && {
        prompt: perToken(m.pricing.input),
        completion: perToken(m.pricing.output),
        image: '0',
        request: '0',
      },
    };
  }

}

/**
 * The names users copy from provider docs for a catalog model: the upstream model id its endpoints call
 * (`claude-sonnet-4-20250514`, `gpt-4o-2024-08-06`: the same snapshot, so the same model and price) and the id
 * without its `vendor/` prefix (`claude-sonnet-4`). A name two models could claim, or that is already a model
 * or alias id, is left out: it stays model_not_found rather than a guess.
 */
function otherNames(
  models: readonly ModelConfig[],
  byId: ReadonlyMap<string, ModelConfig>,
  aliases: ReadonlyMap<string, AliasConfig>,
): Map<string, ModelConfig> {
  const claims = new Map<string, Set<ModelConfig>>();
  const claim = (name: string, m: ModelConfig): void => {
    if (name === m.id || byId.has(name) || aliases.has(name)) return;
    claims.set(name, (claims.get(name) ?? new Set()).add(m));
  };
  for (const m of models) {
    const slash = m.id.lastIndexOf('/');
    if (slash >= 0) claim(m.id.slice(slash + 1), m);
    for (const ep of m.endpoints) claim(ep.upstreamModel, m);
  }
  const out = new Map<string, ModelConfig>();
  for (const [name, owners] of claims) if (owners.size === 1) out.set(name, [...owners][0]!);
  return out;
}

export function aliasModels(a: AliasConfig): string[] {
  return a.kind === 'fastest' ? a.models : [...new Set(Object.values(a.tiers).flat())];
}
