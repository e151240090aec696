/**
 * Vertex AI (Gemini models): the Gemini request, response, stream and error code unchanged; only the URL
 * envelope (project/location publisher path) and Bearer access-token auth differ.
 */
import type { ProviderAdapter } from '../adapter.js';
import { googleAdapter } from '../gemini/base.js';
import { vertexAuth } from './auth.js';
import { vertexModelUrl } from './url.js';

export const vertexAdapter: ProviderAdapter = googleAdapter('vertex', { modelUrl: vertexModelUrl, auth: vertexAuth });
