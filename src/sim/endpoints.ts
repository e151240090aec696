/** Per-prefix config and stats: what each simulated upstream deployment does and what it has received. */
import type { IncomingHttpHeaders } from 'node:http';
import type { FaultKind } from './faults.js';
import type { EndpointConfig, EndpointStats, SimDefaults, SimStats } from './types.js';

const BASE_CONFIG: EndpointConfig = Object.freeze({
  firstByteMs: 0,
  msPerToken: 0,
  fault: null,
  faultCount: 0,
  apiKey: null,
  retryAfterS: 1,
  sigv4: null,
});

/** '' and '/' are the root; 'ep-a', '/ep-a/' and '/ep-a' are the same endpoint. */
export function normalizePrefix(prefix: string): string {
  const trimmed = prefix.replace(/^\/+|\/+$/g, '');
  return `/${trimmed}`;
}

function merge(base: EndpointConfig, patch: Partial<EndpointConfig>): EndpointConfig {
  const next: EndpointConfig = { ...base };
  for (const [key, value] of Object.entries(patch) as [keyof EndpointConfig, unknown][]) {
    if (value !== undefined) Object.assign(next, { [key]: value });
  }
  // Setting a fault without a count means "until told otherwise"; clearing it clears the count.
  if (patch.fault !== undefined && patch.faultCount === undefined) next.faultCount = patch.fault === null ? 0 : -1;
  return next;
}

function emptyStats(): EndpointStats {
  return { requests: 0, byModel: {}, faults: {}, lastPath: null, lastBody: null, lastHeaders: {}, recentResponses: [] };
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export interface RecordedRequest {
  path: string;
  model: string | undefined;
  body: unknown;
  headers: IncomingHttpHeaders;
}

const RECENT_RESPONSES = 16;

export class EndpointTable {
  readonly #defaults: EndpointConfig;
  readonly #configs = new Map<string, EndpointConfig>();
  readonly #stats = new Map<string, EndpointStats>();
  #requests = 0;

  constructor(defaults: SimDefaults = {}) {
    this.#defaults = merge(BASE_CONFIG, defaults);
  }

  config(prefix: string): EndpointConfig {
    return { ...(this.#configs.get(normalizePrefix(prefix)) ?? this.#defaults) };
  }

  configure(prefix: string, patch: Partial<EndpointConfig>): EndpointConfig {
    const key = normalizePrefix(prefix);
    const next = merge(this.#configs.get(key) ?? this.#defaults, patch);
    this.#configs.set(key, next);
    return { ...next };
  }

  record(prefix: string, request: RecordedRequest): void {
    const key = normalizePrefix(prefix);
    const stats = this.#stats.get(key) ?? emptyStats();
    this.#stats.set(key, stats);
    this.#requests += 1;
    stats.requests += 1;
    if (request.model !== undefined) stats.byModel[request.model] = (stats.byModel[request.model] ?? 0) + 1;
    stats.lastPath = request.path;
    stats.lastBody = request.body;
    stats.lastHeaders = flatHeaders(request.headers);
  }

  /** Keeps the response text of the endpoint's last RECENT_RESPONSES requests (tests read the usage reported). */
  recordResponse(prefix: string, text: string): void {
    const stats = this.#stats.get(normalizePrefix(prefix));
    if (!stats) return;
    stats.recentResponses.push(text);
    if (stats.recentResponses.length > RECENT_RESPONSES) stats.recentResponses.shift();
  }

  /** The configured fault for the next request, consuming one of its `faultCount`. */
  takeFault(prefix: string): FaultKind | null {
    const key = normalizePrefix(prefix);
    const config = this.#configs.get(key) ?? this.#defaults;
    if (config.fault === null || config.faultCount === 0) return null;
    const fault = config.fault;
    if (config.faultCount > 0) {
      const left = config.faultCount - 1;
      this.#configs.set(key, { ...config, faultCount: left, fault: left === 0 ? null : fault });
    }
    return fault;
  }

  countFault(prefix: string, fault: FaultKind): void {
    const stats = this.#stats.get(normalizePrefix(prefix));
    if (stats) stats.faults[fault] = (stats.faults[fault] ?? 0) + 1;
  }

  stats(): SimStats {
    return structuredClone({ requests: this.#requests, endpoints: Object.fromEntries(this.#stats) });
  }

  reset(): void {
    this.#configs.clear();
    this.#stats.clear();
    this.#requests = 0;
  }
}
