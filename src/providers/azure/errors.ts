/**
 * Azure OpenAI error bodies: `{error: {code, message}}` from the Azure front door (401 "Access denied due
 * to invalid subscription key...", 404 DeploymentNotFound / "Resource not found", 429 "Requests to the
 * ChatCompletions_Create Operation ... Please retry after N seconds"), OpenAI-shaped bodies from the model
 * service (400 context_length_exceeded, content_filter with `innererror`). Both carry `error.message`.
 */
import type { GatewayError } from '../../errors/gateway-error.js';
import { mapUpstreamStatus, upstreamMessage } from '../openai/errors.js';

export function mapAzureError(status: number, body: string): GatewayError {
  const err = mapUpstreamStatus(status, upstreamMessage(body));
  // Azure's 429 names its wait only in the text ("Please retry after 6 seconds"); keep it for clients.
  const wait = status === 429 ? /retry after (\d+) second/i.exec(body)?.[1] : undefined;
  if (wait !== undefined) err.headers['retry-after'] = wait;
  return err;
}
