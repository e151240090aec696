/**
 * Text normalisation shared by training and scoring. Any change here changes every feature, so the model file
 * records FEATURE_VERSION and refuses to load a model built with another version.
 */

const NON_ASCII = /[^\p{ASCII}]/u;
const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Lower-case, NFKC, strip HTML entities / URLs / @mentions / retweet markers, unify quotes, collapse whitespace. */
export function normalizeText(raw: string): string {
  // ASCII-only text (most prompts) is unchanged by NFKC and has no curly quotes or zero-width characters
  const ascii = !NON_ASCII.test(raw);
  let t = ascii ? raw.toLowerCase() : raw.normalize('NFKC').toLowerCase();
  if (t.includes('&')) {
    t = t.replace(/&#x?[0-9a-f]{1,7};/g, ' ').replace(/&(amp|lt|gt|quot|apos|nbsp);/g, (_m, e: string) => NAMED_ENTITIES[e] ?? ' ');
  }
  if (t.includes('http') || t.includes('www.')) t = t.replace(/https?:\/\/\S+|www\.\S+/g, ' url ');
  if (t.includes('@')) t = t.replace(/(^|\s)rt\s+@\w+:?/g, ' ').replace(/(^|[^\w.])@\w+:?/g, '$1 ');
  if (!ascii) t = t.replace(/[\u2018\u2019\u02bc]/g, "'").replace(/[\u201c\u201d\u00ab\u00bb]/g, '"').replace(/[\u200b-\u200d\ufeff]/g, '');
  if (t.includes('`')) t = t.replaceAll('`', "'");
  // every whitespace run becomes one space; runs that already are one space are not matched (most of them)
  return t.replace(/[^\S ]\s*| \s+/g, ' ').trim();
}
