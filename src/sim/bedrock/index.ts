/** The Bedrock Runtime dialect: Converse and ConverseStream under any prefix, AWS error shapes for faults. */
import type { Dialect } from '../dialect.js';
import { handleConverse, handleConverseStream } from './converse.js';
import { bedrockFaultError } from './errors.js';

function modelId(params: Readonly<Record<string, string>>): string | undefined {
  try {
    return params.modelId === undefined ? undefined : decodeURIComponent(params.modelId);
  } catch {
    return params.modelId;
  }
}

export const bedrockDialect: Dialect = {
  name: 'bedrock',
  routes: [
    { method: 'POST', pattern: /\/model\/(?<modelId>[^/]+)\/converse$/, model: modelId, handle: handleConverse },
    { method: 'POST', pattern: /\/model\/(?<modelId>[^/]+)\/converse-stream$/, model: modelId, handle: handleConverseStream },
  ],
  faultError: bedrockFaultError,
};

export { countInputTokens, planConverse, TOOL_INPUT } from './answer.js';
export { parseConverseRequest } from './request.js';
