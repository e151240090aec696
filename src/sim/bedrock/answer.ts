/**
 * What the simulated Bedrock model answers, decided from the request alone, and its usage. Stream and
 * non-stream renderers share one `ConversePlan`.
 *
 * Usage: `inputTokens` counts the uncached input (system, messages, tool specs; 85 per image);
 * `x-sim-cache-read-tokens` / `x-sim-cache-write-tokens` (or the shared `x-sim-cached-tokens` as reads)
 * move tokens into `cacheReadInputTokens` / `cacheWriteInputTokens`, reported apart as Bedrock does.
 * Output tokens are words (reasoning words plus answer words).
 */
import type { RequestControls } from '../faults.js';
import { isRecord } from '../http.js';
import { countTokens, digest, fillerText, naturalText, singleSpaced, stableId, words } from '../text.js';
import type { ConverseMessage, ConverseRequest } from './request.js';

export const TOOL_INPUT = '{"location":"Paris"}';
const NON_TEXT_BLOCK_TOKENS = 85;

export interface ConverseUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cacheReadInputTokens: number;
  cacheWriteInputTokens: number;
}

export interface ConversePlan {
  reasoning: { words: string[]; signature: string } | null;
  words: string[];
  toolUse: { toolUseId: string; name: string; input: string } | null;
  stopReason: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence';
  stopSequence: string | null;
  usage: ConverseUsage;
}

function textOf(blocks: readonly unknown[]): string {
  return blocks
    .map((b) => (isRecord(b) && typeof b.text === 'string' ? b.text : isRecord(b) && b.json !== undefined ? JSON.stringify(b.json) : ''))
    .filter((t) => t.length > 0)
    .join('\n');
}

function blockTokens(b: Record<string, unknown>): number {
  if (typeof b.text === 'string') return countTokens(b.text);
  if ('cachePoint' in b) return 0;
  if (isRecord(b.toolUse)) return countTokens(`${String(b.toolUse.name)}${JSON.stringify(b.toolUse.input ?? {})}`);
  if (isRecord(b.toolResult)) return Array.isArray(b.toolResult.content) ? countTokens(textOf(b.toolResult.content)) : 0;
  if (isRecord(b.reasoningContent) && isRecord(b.reasoningContent.reasoningText)) return countTokens(String(b.reasoningContent.reasoningText.text ?? ''));
  return NON_TEXT_BLOCK_TOKENS;
}

export function countInputTokens(req: ConverseRequest): number {
  let total = 3 + countTokens(textOf(req.system));
  for (const m of req.messages) {
    total += 3 + countTokens(m.role);
    for (const b of m.content) total += blockTokens(b);
  }
  if (req.tools.length > 0) total += countTokens(JSON.stringify(req.tools));
  return total;
}



function toolName(req: ConverseRequest, last: ConverseMessage | undefined): string | null {
  if (req.toolNames.length === 0) return null;
  if (req.toolChoice.kind === 'tool') return req.toolChoice.name;
  if (req.toolChoice.kind === 'any') return req.toolNames[0] ?? null;
  const answersTool = last?.content.some((b) => 'toolResult' in b) ?? true;
  return !answersTool && /weather/i.test(textOf(last?.content ?? [])) ? (req.toolNames[0] ?? null) : null;
}

function visibleText(req: ConverseRequest, last: ConverseMessage | undefined, controls: RequestControls): string {
  if (controls.outputTokens !== null) return fillerText(controls.outputTokens);
  const result = last?.content.find((b) => isRecord(b.toolResult));
  if (result && isRecord(result.toolResult)) {
    const content = Array.isArray(result.toolResult.content) ? textOf(result.toolResult.content) : '';
    const said = words(content).slice(0, 40).join(' ');
    return singleSpaced(`Echo: the tool returned ${said.length > 0 ? said : 'nothing'}.`);
  }
  return naturalText(`${req.modelId}\n${JSON.stringify(req.messages)}`);
}

function stopAt(text: string, stops: readonly string[]): { text: string; stop: string | null } {
  let at = -1;
  let which: string | null = null;
  for (const stop of stops) {
    const i = stop.length > 0 ? text.indexOf(stop) : -1;
    if (i >= 0 && (at < 0 || i < at)) [at, which] = [i, stop];
  }
  return at < 0 ? { text, stop: null } : { text: text.slice(0, at).trimEnd(), stop: which };
}

export function planConverse(req: ConverseRequest, controls: RequestControls): ConversePlan {
  const cache = controls.cache;
  const seed = `${req.modelId}\n${JSON.stringify(req.messages)}`;
  const last = req.messages.at(-1)?.role === 'user' ? req.messages.at(-1) : undefined;
  const prompt = countInputTokens(req);
  const read = Math.min(cache.read, prompt);
  const write = Math.min(cache.write, prompt - read);
  let reasoning: ConversePlan['reasoning'] = null;
  if (req.thinkingBudget !== null) {
    const asked = words(textOf(last?.content ?? [])).slice(0, 8).join(' ');
    const thought = controls.reasoningTokens > 0 ? words(fillerText(controls.reasoningTokens)) : words(`The user wrote: ${asked || 'nothing'}. A short answer will do.`);
    reasoning = { words: thought, signature: digest(`sig\n${thought.join(' ')}`).toString('base64') };
  }
  const spent = reasoning?.words.length ?? 0;
  const usage = (output: number): ConverseUsage => ({
    inputTokens: prompt - read - write,
    outputTokens: output,
    totalTokens: prompt + output,
    cacheReadInputTokens: read,
    cacheWriteInputTokens: write,
  });
  const name = toolName(req, last);
  if (name !== null) {
    const toolUse = { toolUseId: `tooluse_${stableId(`tool\n${seed}`, 22)}`, name, input: TOOL_INPUT };
    const output = spent + countTokens(name) + countTokens(TOOL_INPUT);
    return { reasoning, words: [], toolUse, stopReason: 'tool_use', stopSequence: null, usage: usage(output) };
  }
  const stopped = stopAt(visibleText(req, last, controls), req.stop);
  let answer = words(stopped.text);
  let stopReason: ConversePlan['stopReason'] = stopped.stop === null ? 'end_turn' : 'stop_sequence';
  if (req.maxTokens !== null && answer.length > Math.max(0, req.maxTokens - spent)) {
    answer = answer.slice(0, Math.max(0, req.maxTokens - spent));
    stopReason = 'max_tokens';
  }
  const stopSequence = stopReason === 'stop_sequence' ? stopped.stop : null;
  return { reasoning, words: answer, toolUse: null, stopReason, stopSequence, usage: usage(spent + answer.length) };
}
