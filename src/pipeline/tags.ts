import { invalid } from '../errors/gateway-error.js';

const MAX_TAGS = 16;
const TAG_RE = /^[A-Za-z0-9_.:-]{1,64}=[^,=]{1,128}$/;

/** x-svc-tags: comma-separated `key=value` pairs for spend attribution. */
export function parseTags(header: string | undefined): string[] {
  if (header === undefined || header.trim() === '') return [];
  const tags = header.split(',').map((t) => t.trim()).filter((t) => t !== '');
  if (tags.length > MAX_TAGS) throw invalid(`x-svc-tags: at most ${MAX_TAGS} tags.`);
  for (const t of tags) {
    if (!TAG_RE.test(t)) throw invalid(`x-svc-tags: ${JSON.stringify(t)} is not a key=value pair.`);
  }
  return tags;
}
