/**
 * Finds the last `"usage":{...}` object in a JSON or SSE text without parsing the rest of it: usage is
 * at the end of a completion and in the last chunk of a stream, so only that slice is parsed.
 */
export function lastUsageObject(text: string): Record<string, unknown> | null {
  let at = text.length;
  while (at > 0) {
    const k = text.lastIndexOf('"usage"', at - 1);
    if (k < 0) return null;
    let i = k + 7;
    while (i < text.length && (text[i] === ' ' || text[i] === ':' || text[i] === '\n' || text[i] === '\t')) i++;
    if (text[i] === '{') {
      const end = matchBrace(text, i);
      if (end > 0) {
        try {
          const v: unknown = JSON.parse(text.slice(i, end + 1));
          if (typeof v === 'object' && v !== null) return v as Record<string, unknown>;
        } catch {
          /* not a usage object after all: keep looking further back */
        }
      }
    }
    at = k;
  }
  return null;
}

function matchBrace(text: string, open: number): number {
  let depth = 0;
  let inStr = false;
  for (let i = open; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inStr) {
      if (c === 92) i++;
      else if (c === 34) inStr = false;
    } else if (c === 34) inStr = true;
    else if (c === 123) depth++;
    else if (c === 125 && --depth === 0) return i;
  }
  return -1;
}

export function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;
}
