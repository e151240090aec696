/**
 * The Azure OpenAI dialect: chat completions under `/openai/deployments/{deployment}/chat/completions`,
 * `api-version` required, `api-key` auth, Azure's own error bodies for injected faults.
 */
import type { Dialect } from '../dialect.js';
import { handleAzureChat } from './chat.js';
import { azureFaultError } from './errors.js';

export const azureDialect: Dialect = {
  name: 'azure',
  routes: [
    {
      method: 'POST',
      pattern: /\/openai\/deployments\/(?<deployment>[^/]+)\/chat\/completions$/,
      model: (params) => params.deployment,
      handle: handleAzureChat,
    },
  ],
  faultError: azureFaultError,
};
