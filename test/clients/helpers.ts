/** Shared helpers of the client-compatibility suite: one gateway in front of the simulator, SSE parsing. */
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

/** One model per provider family the suite crosses every client with. */
export const MODELS = {
  openai: 'gpt-4o-mini',
  anthropic: 'anthropic/claude-3.5-haiku',
  gemini: 'google/gemini-2.0-flash',
  mistral: 'mistral/mistral-large',
} as const;
export type Family = keyof typeof MODELS;
export const FAMILIES = Object.keys(MODELS) as Family[];

/** Guardrails in monitor mode: client libraries send their own system prompts, which must not be refused here. */
export function startClientGateway(): Promise<TestGateway> {
  return startTestGateway({ config: { guardrails: { mode: 'monitor' } } });
}

export async function post(t: TestGateway, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${t.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}`, ...headers },
    body: JSON.stringify(body),
  });
}

export interface SseEvent {
  event: string | null;
  data: string;
}

/** Splits an SSE body into events (comments kept as `event: ':'`). */
export function parseSse(text: string): SseEvent[] {
  const out: SseEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    if (block.trim() === '') continue;
    let event: string | null = null;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(':')) out.push({ event: ':', data: line.slice(1).trim() });
      else if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length > 0) out.push({ event, data: data.join('\n') });
  }
  return out;
}

/** The `: x-svc-usage {...}` comment a gateway stream carries before its end. */
export function usageCommentOf(events: SseEvent[]): Record<string, unknown> | null {
  const c = events.find((e) => e.event === ':' && e.data.startsWith('x-svc-usage '));
  return c ? (JSON.parse(c.data.slice('x-svc-usage '.length)) as Record<string, unknown>) : null;
}
