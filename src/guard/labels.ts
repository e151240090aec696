/** The eight guardrail outputs, in model-head order. */
export const GUARD_LABELS = [
  'prompt_injection',
  'hate',
  'hate/threatening',
  'self-harm',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
] as const;

export type GuardLabel = (typeof GUARD_LABELS)[number];

export const GUARD_LABEL_COUNT = GUARD_LABELS.length;

export function isGuardLabel(x: string): x is GuardLabel {
  return (GUARD_LABELS as readonly string[]).includes(x);
}
