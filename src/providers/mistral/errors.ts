/**
 * Mistral error bodies come in three shapes: the API's `{object:'error', message, type, param, code}`
 * (message a string, or `{detail: [...]}` for 422 validation errors), the gateway's
 * `{message:'Unauthorized', request_id}` and FastAPI's `{detail: 'Unauthorized' | [...]}`.
 */
import type { GatewayError } from '../../errors/gateway-error.js';
import { mapUpstreamStatus, scrubSecrets } from '../openai/errors.js';
import { arr, isRec, rec, str } from '../openai/wire.js';

/** Pydantic validation items as `body.max_completion_tokens: Extra inputs are not permitted` (no input echo). */
function validationText(detail: unknown): string {
  return arr(detail)
    .map((item) => {
      const d = rec(item);
      const loc = arr(d.loc).map(String).join('.');
      return `${loc}${loc ? ': ' : ''}${str(d.msg) ?? ''}`;
    })
    .join('; ');
}

export function mistralMessage(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return '';
  }
  const b = rec(parsed);
  const message = b.message;
  let text = '';
  if (typeof message === 'string') text = message;
  else if (isRec(message)) text = validationText(message.detail);
  else if (typeof b.detail === 'string') text = b.detail;
  else if (Array.isArray(b.detail)) text = validationText(b.detail);
  else if (isRec(b.error)) text = str(b.error.message) ?? '';
  return scrubSecrets(text).slice(0, 500);
}

export function mapMistralError(status: number, body: string): GatewayError {
  return mapUpstreamStatus(status, mistralMessage(body));
}
