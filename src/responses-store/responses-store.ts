/**
 * The Responses API's conversation state: every stored response (the default, `store: true`) keeps its
 * input and output items per organization for `RESPONSE_TTL_MS`, so a later request may continue it with
 * `previous_response_id` or point at one of its items with `{type: 'item_reference', id}` (the AI SDK's
 * responses model does that from the second turn). Works on wire JSON before the format decodes it, so the
 * decoder stays stateless; storage goes through the Store's KV (memory or Redis, the same semantics).
 *
 * Storage is bounded: an organization keeps its last `maxPerOrg` responses (RESPONSES_MAX_PER_ORG by default), the
 * oldest deleted as new ones are stored, whatever is left of their TTL. Without a bound a client storing at 1,650
 * responses a second (the default `store: true`) grew the embedded store's file by 4.3 MiB a second for 24 hours.
 */
import type { JsonObject, JsonValue } from '../canonical/types.js';
import { GatewayError, invalid } from '../errors/gateway-error.js';
import type { Store } from '../store/contract.js';

/** How long a stored response can be continued or referenced (OpenAI keeps them 30 days; we keep one). */
export const RESPONSE_TTL_MS = 24 * 60 * 60 * 1000;

/** Stored responses an organization keeps (the oldest are deleted first). */
export const RESPONSES_MAX_PER_ORG = 100_000;

/** The slice of the Store this module needs. */
export type ResponsesKv = Pick<Store, 'kvGet' | 'kvSetCapped'>;

export interface StoredResponse {
  /** Every input item the response answered (a previous response's items expanded, references resolved). */
  input: JsonValue[];
  /** Written before `response` was stored; now read from `response.output` (one copy of the output, not two). */
  output?: JsonValue[];
  /** The whole response object as answered (GET /v1/responses/{id}). */
  response?: JsonObject;
}

/** A stored response's output items, whichever way it was written. */
function outputOf(s: StoredResponse): JsonValue[] {
  const out = s.output ?? s.response?.output;
  return Array.isArray(out) ? out : [];
}

type Body = Record<string, unknown>;
const isObj = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Output item ids embed the response's request id (`msg_<id>_<n>`, `fc_<id>_<n>`): the owner is found from the id. */
const ITEM_ID = /^(?:msg|fc)_(.+)_\d+$/;

export class ResponsesStore {
  readonly #kv: ResponsesKv;
  readonly #ttlMs: number;
  readonly #maxPerOrg: number;
  /** Writes not yet acknowledged, awaited by a read of the same id (a client may continue at once). */
  readonly #pending = new Map<string, Promise<void>>();

  constructor(kv: ResponsesKv, ttlMs = RESPONSE_TTL_MS, maxPerOrg = RESPONSES_MAX_PER_ORG) {
    this.#kv = kv;
    this.#ttlMs = ttlMs;
    this.#maxPerOrg = maxPerOrg;
  }

  /**
   * Rewrites a /v1/responses body in place into the stateless request it stands for: the previous
   * response's input and output items go before `input`, item references become the items they name.
   * Unknown, expired or other organizations' ids are 404 `not_found` (the same answer for all three).
   * Returns the expanded input items, to be stored with this request's answer.
   */
  async expand(orgId: string, body: Body): Promise<JsonValue[]> {
    const prevId = body.previous_response_id;
    if (prevId !== undefined && prevId !== null && typeof prevId !== 'string') throw invalid('previous_response_id must be a string.', 'previous_response_id');
    if (!Array.isArray(body.input) && typeof body.input !== 'string' && body.input !== undefined) return []; // the decoder names the error
    const input: JsonValue[] = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : ((body.input as JsonValue[] | undefined) ?? []);
    const loaded = new Map<string, StoredResponse>();
    const load = async (id: string, param: string): Promise<StoredResponse> => {
      const hit = loaded.get(id) ?? (await this.#get(orgId, id));
      if (!hit) throw new GatewayError('not_found', { message: `No stored response ${JSON.stringify(id)} in this organization (unknown, expired or stored with store: false).`, param });
      loaded.set(id, hit);
      return hit;
    };
    const out: JsonValue[] = [];
    if (typeof prevId === 'string') {
      const prev = await load(prevId, 'previous_response_id');
      out.push(...prev.input, ...outputOf(prev));
    }
    for (let i = 0; i < input.length; i++) {
      const item = input[i]!;
      if (!isObj(item) || item.type !== 'item_reference') {
        out.push(item);
        continue;
      }
      const param = `input[${i}].id`;
      if (typeof item.id !== 'string') throw invalid(`${param} must be a string.`, param);
      const owner = ITEM_ID.exec(item.id);
      const stored = owner ? await load(`resp_${owner[1]}`, param) : null;
      const found = (stored ? outputOf(stored) : []).find((x) => isObj(x) && x.id === item.id) ?? stored?.input.find((x) => isObj(x) && x.id === item.id);
      if (found === undefined) throw new GatewayError('not_found', { message: `No stored item ${JSON.stringify(item.id)} in this organization.`, param });
      out.push(found);
    }
    delete body.previous_response_id;
    body.input = out;
    return out;
  }

  /** Keeps a finished response (its `id` and `output`) with the input it answered. Never throws. */
  save(orgId: string, input: JsonValue[], response: JsonObject, onError: (err: unknown) => void): void {
    const id = response.id;
    if (typeof id !== 'string' || !Array.isArray(response.output)) return;
    const key = storeKey(orgId, id);
    const value: StoredResponse = { input, response };
    const write = this.#kv
      .kvSetCapped(key, value, this.#ttlMs, orgGroup(orgId), this.#maxPerOrg)
      .catch(onError)
      .finally(() => this.#pending.delete(key));
    this.#pending.set(key, write);
  }

  /** A stored response object of this organization; null when unknown, expired or another organization's. */
  async retrieve(orgId: string, id: string): Promise<JsonObject | null> {
    return (await this.#get(orgId, id))?.response ?? null;
  }

  async #get(orgId: string, id: string): Promise<StoredResponse | null> {
    const key = storeKey(orgId, id);
    await this.#pending.get(key);
    return this.#kv.kvGet<StoredResponse>(key);
  }
}

/** One organization's keys share its hash tag, like every other per-org key. */
const storeKey = (orgId: string, responseId: string): string => `${orgGroup(orgId)}:${responseId}`;
/** The capped group of an organization's stored responses (its keys' prefix, the same hash tag). */
const orgGroup = (orgId: string): string => `responses:{org:${orgId}}`;
