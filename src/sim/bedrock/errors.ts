/**
 * Bedrock Runtime's error responses: status, `x-amzn-ErrorType: <Name>:<namespace>` and a `{message}` body
 * (restJson1 protocol; the AWS SDKs take the exception name from that header). Names and texts as the
 * Converse API reference and the service return them.
 */
import { randomUUID } from 'node:crypto';
import type { SimRequest } from '../dialect.js';
import type { StatusFault } from '../faults.js';
import type { JsonReply } from '../http.js';

const NAMESPACE = 'http://internal.amazon.com/coral/com.amazon.bedrock/';

export function awsError(status: number, type: string, message: string): JsonReply {
  return {
    status,
    headers: { 'x-amzn-ErrorType': `${type}:${NAMESPACE}`, 'x-amzn-RequestId': randomUUID() },
    body: { message },
  };
}

export function validation(message: string): JsonReply {
  return awsError(400, 'ValidationException', message);
}

/** "1 validation error detected: Value ... at '<path>' failed to satisfy constraint: ..." */
export function constraint(path: string, value: string, rule: string): JsonReply {
  return validation(`1 validation error detected: Value ${value} at '${path}' failed to satisfy constraint: ${rule}`);
}

export function bedrockFaultError(kind: StatusFault, _request: SimRequest): JsonReply {
  switch (kind) {
    case '400':
      return validation('The model returned the following errors: Input is too long for requested model.');
    case '401':
      // AWS answers a refused credential with 403; there is no 401 in Bedrock's error set.
      return awsError(403, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
    case '429':
      return awsError(429, 'ThrottlingException', 'Too many requests, please wait before trying again.');
    case '500':
      return awsError(500, 'InternalServerException', 'The server encountered an internal error while processing the request.');
    case '503':
    case '529':
      // Bedrock has no 529: an overloaded model surfaces as ServiceUnavailableException.
      return awsError(503, 'ServiceUnavailableException', 'Bedrock is unable to process your request.');
  }
}
