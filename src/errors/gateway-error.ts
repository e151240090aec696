import { ERRORS, type CatalogEntry, type ErrorName } from './codes.js';

export interface GatewayErrorOptions {
  /** Override the catalog's default human-readable text. */
  message?: string;
  /** Override `error.code` (e.g. the 403 family's specific key_* code). */
  code?: string | null;
  /** Extra response headers (x-svc-auth-reason, x-svc-limit-source, x-svc-guardrails, retry-after...). */
  headers?: Record<string, string>;
  /** Extra error-object fields (e.g. `param`). */
  param?: string;
  cause?: unknown;
}

/** A refusal from the catalog. The only error type that crosses stage boundaries. */
export class GatewayError extends Error {
  readonly entry: CatalogEntry;
  readonly status: number;
  readonly type: string;
  readonly code: string | null;
  readonly headers: Record<string, string>;
  readonly param: string | undefined;

  constructor(name: ErrorName, opts: GatewayErrorOptions = {}) {
    const entry = ERRORS[name];
    super(opts.message ?? entry.message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'GatewayError';
    this.entry = entry;
    this.status = entry.status;
    this.type = entry.type;
    this.code = opts.code === undefined ? entry.code : opts.code;
    this.headers = opts.headers ?? {};
    this.param = opts.param;
  }

  /** The wire error object of the contract: {error: {message, type, code}}. */
  toBody(): { error: { message: string; type: string; code?: string; param?: string } } {
    const error: { message: string; type: string; code?: string; param?: string } = {
      message: this.message,
      type: this.type,
    };
    if (this.code !== null) error.code = this.code;
    if (this.param !== undefined) error.param = this.param;
    return { error };
  }
}

export function isGatewayError(e: unknown): e is GatewayError {
  return e instanceof GatewayError;
}

/** Shorthand for a 400 invalid_request with a message naming the offending field. */
export function invalid(message: string, param?: string): GatewayError {
  return new GatewayError('invalid_request', param === undefined ? { message } : { message, param });
}
