/**
 * The simulator's own control API under `/_sim/`, for tests and operators driving it from another process:
 *   GET  /_sim/health                  -> { ok: true }
 *   GET  /_sim/stats                   -> SimStats
 *   POST /_sim/reset                   -> { ok: true }   (stats and per-endpoint config forgotten)
 *   POST /_sim/config {prefix, ...EndpointConfig}  -> { prefix, config }  (merged into that endpoint)
 *   GET  /_sim/config?prefix=/ep-a     -> { prefix, config }
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { normalizePrefix, type EndpointTable } from './endpoints.js';
import { FAULT_KINDS, parseFault } from './faults.js';
import { isRecord, parseJson, readBody, sendJson } from './http.js';
import type { EndpointConfig } from './types.js';

export function simError(status: number, message: string): { status: number; body: unknown } {
  return { status, body: { error: { message: `simulator: ${message}`, type: 'sim_error', param: null, code: null } } };
}

const NUMBER_KEYS = ['firstByteMs', 'msPerToken', 'retryAfterS'] as const;

/** Validates an untrusted config patch; a string is the reason it was refused. */
export function parseConfigPatch(input: Record<string, unknown>): Partial<EndpointConfig> | string {
  const patch: Partial<EndpointConfig> = {};
  for (const [key, value] of Object.entries(input)) {
    if ((NUMBER_KEYS as readonly string[]).includes(key)) {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return `${key} must be a number >= 0`;
      Object.assign(patch, { [key]: value });
    } else if (key === 'faultCount') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < -1) return 'faultCount must be an integer >= -1';
      patch.faultCount = value;
    } else if (key === 'fault') {
      const fault = value === null ? null : parseFault(value);
      if (fault === undefined) return `fault must be null or one of ${FAULT_KINDS.join(', ')}`;
      patch.fault = fault;
    } else if (key === 'apiKey') {
      if (value !== null && typeof value !== 'string') return 'apiKey must be a string or null';
      patch.apiKey = value;
    } else if (key !== 'prefix') {
      return `unknown config key '${key}'`;
    }
  }
  return patch;
}

export async function handleAdmin(req: IncomingMessage, res: ServerResponse, url: URL, table: EndpointTable): Promise<void> {
  const route = `${req.method ?? 'GET'} ${url.pathname}`;
  const body = await readBody(req);
  switch (route) {
    case 'GET /_sim/health':
      return sendJson(res, { status: 200, body: { ok: true } });
    case 'GET /_sim/stats':
      return sendJson(res, { status: 200, body: table.stats() });
    case 'POST /_sim/reset':
      table.reset();
      return sendJson(res, { status: 200, body: { ok: true } });
    case 'GET /_sim/config': {
      const prefix = normalizePrefix(url.searchParams.get('prefix') ?? '/');
      return sendJson(res, { status: 200, body: { prefix, config: table.config(prefix) } });
    }
    case 'POST /_sim/config': {
      const input = body === null ? undefined : parseJson(body);
      if (!isRecord(input)) return sendJson(res, simError(400, 'body must be a JSON object'));
      if (input.prefix !== undefined && typeof input.prefix !== 'string') {
        return sendJson(res, simError(400, 'prefix must be a string'));
      }
      const patch = parseConfigPatch(input);
      if (typeof patch === 'string') return sendJson(res, simError(400, patch));
      const prefix = normalizePrefix(input.prefix ?? '/');
      return sendJson(res, { status: 200, body: { prefix, config: table.configure(prefix, patch) } });
    }
    default:
      return sendJson(res, simError(404, `no admin route ${route}`));
  }
}
