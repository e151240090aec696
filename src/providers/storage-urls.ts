/**
 * Cloud-storage image URLs (`s3://bucket/key`, `gs://bucket/object`) are read by Bedrock and Vertex with the
 * operator's cloud credentials, not the tenant's: forwarding one from a tenant makes the gateway a confused
 * deputy (security hardening, finding 5). A provider that would forward such a URL asks `checkStorageUrl`
 * first; only buckets the operator listed for the organization pass (`svc admin org storage`).
 */
import type { CanonicalRequest } from '../canonical/types.js';
import { invalid } from '../errors/gateway-error.js';

/** URL schemes that name cloud storage read with the operator's credentials. */
const STORAGE = /^\s*(s3|gs):\/\/([^/?#]*)/i;

/** `s3://bucket` or `gs://bucket` (scheme lower-case) when `url` names cloud storage; null otherwise. */
export function storageBucket(url: string): string | null {
  const m = STORAGE.exec(url);
  return m === null ? null : `${m[1]!.toLowerCase()}://${m[2]!}`;
}

/** An operator allow-list entry, normalised: `s3://bucket` / `gs://bucket`; null when malformed. */
export function bucketEntry(v: string): string | null {
  const m = /^(s3|gs):\/\/([a-z0-9][a-z0-9._-]{1,221}[a-z0-9])\/?$/i.exec(v.trim());
  return m === null ? null : `${m[1]!.toLowerCase()}://${m[2]!}`;
}

/**
 * Refuses (400, param `messages`) a cloud-storage URL whose bucket is not in `allowed`; any other URL
 * passes unchanged. `allowed` holds normalised entries (see bucketEntry).
 */
export function checkStorageUrl(url: string, allowed: readonly string[]): void {
  const bucket = storageBucket(url);
  if (bucket === null || allowed.includes(bucket)) return;
  throw invalid(
    `Image URL ${bucket}/... is not allowed: cloud-storage URLs are read with the gateway's credentials, so only buckets the operator allows for your organization are accepted. Send the image as base64 data instead.`,
    'messages',
  );
}

/** checkStorageUrl on every image URL of a request (message parts and images inside tool results). */
export function checkStorageUrls(req: CanonicalRequest, allowed: readonly string[]): void {
  for (const m of req.messages) {
    for (const part of m.content) {
      const images = part.type === 'image' ? [part] : part.type === 'tool_result' ? part.content.filter((c) => c.type === 'image') : [];
      for (const img of images) if (img.source.kind === 'url') checkStorageUrl(img.source.url, allowed);
    }
  }
}
