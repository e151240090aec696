import type { GatewayError } from '../errors/gateway-error.js';
import { isMessagesRoute, toMessagesError } from './messages/error.js';

/**
 * The error body for a route, as JSON text: the contract's error object everywhere, in the messages envelope
 * on the messages routes so the Anthropic SDK reads it (the OpenAI SDK reads the plain object on its routes).
 */
export function errorBodyFor(path: string, err: GatewayError): string {
  return JSON.stringify(isMessagesRoute(path) ? toMessagesError(err) : err.toBody());
}
