/**
 * The Google dialect: Gemini API (`/{v1,v1beta,v1alpha}/models/{model}:generateContent`) and Vertex AI
 * (`/{v1,v1beta1}/projects/{p}/locations/{l}/publishers/google/models/{model}:generateContent`, and the
 * express-mode `/v1/publishers/google/models/{model}:...`), both with `:streamGenerateContent`. One body
 * format, Google error bodies for injected faults; auth by API key (Gemini, express) or Bearer (Vertex).
 */
import type { Dialect, SimRoute } from '../dialect.js';
import { googleFaultError } from './errors.js';
import { handleGenerate } from './generate.js';

const METHOD = '(?<method>generateContent|streamGenerateContent)';

const route = (pattern: RegExp): SimRoute => ({
  method: 'POST',
  pattern,
  model: (params) => params.model,
  handle: handleGenerate,
});

export const geminiDialect: Dialect = {
  name: 'gemini',
  routes: [
    route(new RegExp(`/(?<version>v1|v1beta1)/projects/(?<project>[^/]+)/locations/(?<location>[^/]+)/publishers/google/models/(?<model>[^/:]+):${METHOD}$`)),
    route(new RegExp(`/(?<version>v1|v1beta1)/publishers/google/models/(?<model>[^/:]+):${METHOD}$`)),
    route(new RegExp(`/(?<version>v1|v1beta|v1alpha)/models/(?<model>[^/:]+):${METHOD}$`)),
  ],
  faultError: googleFaultError,
};
