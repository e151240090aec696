/**
 * The Vertex AI envelope (Vertex AI REST reference, "projects.locations.publishers.models.generateContent"):
 *   POST https://{region}-aiplatform.googleapis.com/v1/projects/{project}/locations/{region}
 *        /publishers/google/models/{model}:generateContent
 * `baseUrl` is everything up to the location (`.../v1/projects/my-proj/locations/us-central1`), so project,
 * region and API version are the operator's, in one field. A baseUrl without `/projects/` (the global
 * `https://aiplatform.googleapis.com/v1` publisher path) is used as is.
 */
import type { EndpointConfig } from '../../config/schema.js';

export function vertexModelUrl(ep: EndpointConfig): string {
  const model = ep.upstreamModel.replace(/^(publishers\/google\/)?models\//, '');
  return `${ep.baseUrl.replace(/\/+$/, '')}/publishers/google/models/${encodeURIComponent(model)}`;
}
