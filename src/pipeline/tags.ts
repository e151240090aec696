import { invalid } from '../errors/gateway-error.js';

const MAX_TAGS = 16;
// A value is free text but never markup, a control character or an invisible format character (bidi
// overrides and isolates, zero-width characters): tags are shown in spend views (security hardening, 6).
const TAG_RE = /^[A-Za-z0-9_.:-]{1,64}=[^,=<>"'`&\p{Cc}\p{Cf}]{1,128}$/u;

/** x-svc-tags: comma-separated `key=value` pairs for spend attribution. */
export function parseTags(header: string | undefined): string[] {
  if (header === undefined || header.trim() === '') return [];
  const tags = header.split(',').map((t) => t.trim()).filter((t) => t !== '');
  if (tags.length > MAX_TAGS) throw invalid(`x-svc-tags: at most ${MAX_TAGS} tags.`);
  for (const t of tags) {
    if (!TAG_RE.test(t)) {
      throw invalid(`x-svc-tags: ${JSON.stringify(t)} is not a key=value pair (a value has no markup, control or invisible formatting characters).`);
    }
  }
  return tags;
}
