/**
 * Azure OpenAI: OpenAI's own request, response and stream code (same vendor, same wire), with Azure's
 * envelope (deployment URL + api-version) and `api-key` auth. Azure's extra stream chunk (prompt filter
 * results, empty `choices`) and `content_filter` finishes are handled by the shared decoder.
 */
import type { ProviderAdapter } from '../adapter.js';
import { chatAdapter } from '../openai/base.js';
import { OPENAI_PARAMS } from '../openai/params.js';
import { azureAuth } from './auth.js';
import { mapAzureError } from './errors.js';
import { azureChatUrl } from './url.js';

export const azureAdapter: ProviderAdapter = chatAdapter({
  name: 'azure',
  passthrough: true,
  params: { ...OPENAI_PARAMS, provider: 'azure' },
  envelope: { url: azureChatUrl, auth: azureAuth },
  mapError: mapAzureError,
});
