/**
 * GET /metrics on the inference port. The scrape shows upstream hosts and spend by model, so it is off
 * unless the operator sets a bearer token (SVC_METRICS_TOKEN); then a scrape must send
 * `authorization: Bearer <token>`. Off: 404 `not_found` (as an unknown route); wrong or missing token:
 * 401 `invalid_api_key`.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { GatewayError } from '../errors/gateway-error.js';
import type { Handler } from '../server/types.js';
import type { Metrics } from './metrics.js';

function refuse(err: GatewayError): [number, Record<string, string>, string] {
  return [
    err.status,
    { ...err.headers, 'x-svc-request-id': randomUUID(), 'content-type': 'application/json' },
    JSON.stringify(err.toBody()),
  ];
}

export function metricsHandler(metrics: Metrics, token: string | undefined): Handler {
  if (!token) {
    const off = new GatewayError('not_found', { message: 'No route for GET /metrics (set SVC_METRICS_TOKEN to enable it).' });
    return (_req, res) => res.send(...refuse(off));
  }
  const expected = Buffer.from(`Bearer ${token}`);
  const denied = new GatewayError('invalid_api_key', { message: 'GET /metrics needs authorization: Bearer <SVC_METRICS_TOKEN>.' });
  return async (req, res) => {
    const got = Buffer.from(req.headers.get('authorization') ?? '');
    if (got.length !== expected.length || !timingSafeEqual(got, expected)) {
      res.send(...refuse(denied));
      return;
    }
    res.send(200, { 'content-type': metrics.contentType }, await metrics.render());
  };
}
