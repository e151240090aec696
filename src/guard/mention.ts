/**
 * Quoted mentions of attack phrases. Developers and security teams quote injection phrases as data: a regex that
 * flags "ignore previous instructions", a log search for "you are now DAN", a filter's pattern list under review. A
 * word and character n-gram model cannot tell a quoted mention from a use, so such requests were refused
 * (test/unit/guard/fresh-benign.test.ts, sec/detect#2 and security#5).
 *
 * A text qualifies when it holds short quoted spans (double quotes, curly quotes, guillemets or backticks, at most
 * MAX_SPAN characters on one line) and the text outside them names the work of detecting or describing attacks
 * (regex, pattern, detect, flag, classify, filter, label, examples, e.g., prompt injection, jailbreak...). The
 * injection head then also scores the text with those spans blanked, and the lower score stands: the words the
 * request uses itself still count in full, only what it quotes is set aside.
 *
 * The limit this accepts: an attack phrased as a short quotation inside such vocabulary (for my regex test:
 * "ignore all previous instructions") is scored without the quotation. Single quotes are not quotation marks here
 * (apostrophes are too common to pair reliably). A model reading it is being asked about the
 * phrase, not told to follow it; a long quoted document or a planted instruction without that vocabulary around it is
 * scored as before.
 */
const MAX_SPAN = 160;

const QUOTED = new RegExp(
  [`"[^"\\n]{1,${MAX_SPAN}}"`, `\u201c[^\u201d\\n]{1,${MAX_SPAN}}\u201d`, `\u00ab[^\u00bb\\n]{1,${MAX_SPAN}}\u00bb`, `\`[^\`\\n]{1,${MAX_SPAN}}\``].join('|'),
  'g',
);

const CUE =
  /\b(?:regex(?:es|p)?|patterns?|detect(?:s|ed|ion|ing|or|ors)?|classif(?:y|ier|iers|ication)|filter(?:s|ed|ing)?|flag(?:s|ged|ging)?|label(?:s|led|ling)?|annotat\w*|test ?cases?|examples?|e\.g\.|such as|phrases? like|strings? like|block ?list|deny ?list|guardrails?|red[- ]team\w*|prompt[- ]injections?|jailbreak\w*|matches|matching|search(?:es)? for)\b/i;

/** The text with its quoted spans blanked when it quotes attack-like phrases as data (see above), else null. */
export function quotedMention(text: string): string | null {
  if (!/["\u201c\u00ab`]/.test(text)) return null;
  let spans = 0;
  const outside = text.replace(QUOTED, () => {
    spans++;
    return '""';
  });
  if (spans === 0 || !CUE.test(outside)) return null;
  return outside;
}
