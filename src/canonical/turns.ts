import type { CanonicalMessage, ContentPart } from './types.js';

export interface Turn<B> {
  role: 'user' | 'assistant';
  content: B[];
}

/**
 * Canonical messages -> strictly alternating user/assistant turns, for APIs that require alternation
 * (Anthropic Messages, Bedrock Converse): tool results ride in user turns, consecutive same-role turns are
 * merged, empty turns dropped, and in a user turn tool results come first (both APIs want them leading).
 */
export function alternatingTurns<B>(
  messages: readonly CanonicalMessage[],
  toBlocks: (part: ContentPart) => B[],
  isToolResult: (block: B) => boolean,
): Turn<B>[] {
  const out: Turn<B>[] = [];
  for (const message of messages) {
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const content = message.content.flatMap(toBlocks);
    if (content.length === 0) continue;
    const last = out.at(-1);
    if (last?.role === role) last.content.push(...content);
    else out.push({ role, content });
  }
  for (const m of out) {
    if (m.role === 'user' && m.content.some(isToolResult)) {
      m.content.sort((a, b) => Number(isToolResult(b)) - Number(isToolResult(a)));
    }
  }
  return out;
}
