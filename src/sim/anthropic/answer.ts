/**
 * What the simulated Claude answers, decided from the request alone, and the usage it reports. The stream
 * and non-stream renderers draw from one `MessagePlan`, so a streamed answer equals the whole one.
 *
 * Usage: input tokens are counted with the shared tokenizer (system, messages, tool schemas; 85 per image);
 * `x-sim-cache-read-tokens` / `x-sim-cache-write-tokens` (or the shared `x-sim-cached-tokens` as reads) move
 * that many of them into `cache_read_input_tokens` / `cache_creation_input_tokens`, which Anthropic reports
 * apart from `input_tokens`. Output tokens are words: thinking words plus answer words. With thinking on,
 * `x-sim-reasoning-tokens` sets the thinking length; `x-sim-output-tokens` sets the answer length.
 */
import type { RequestControls } from '../faults.js';
import { countTokens, digest, fillerText, naturalText, singleSpaced, stableId, words } from '../text.js';
import { isRecord } from '../http.js';
import { sampleJsonText } from '../json-sample.js';
import type { MessagesRequest, SimMessage } from './request.js';

export const TOOL_INPUT = '{"location":"Paris"}';
const NON_TEXT_BLOCK_TOKENS = 85;


export interface Usage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  output_tokens: number;
  /** Present when thinking ran (newer API versions report it; output_tokens includes it). */
  output_tokens_details?: { thinking_tokens: number };
}

export interface MessagePlan {
  id: string;
  thinking: { words: string[]; signature: string } | null;
  words: string[];
  /** The first tool use (kept for renderers of one). */
  toolUse: { id: string; name: string; input: string } | null;
  /** Every tool use of the answer (several when the turn names several tools and parallel use is allowed). */
  toolUses: { id: string; name: string; input: string }[];
  stopReason: 'end_turn' | 'max_tokens' | 'tool_use' | 'stop_sequence';
  stopSequence: string | null;
  usage: Usage;
}

function textOf(blocks: readonly unknown[]): string {
  return blocks
    .map((b) => (typeof b === 'object' && b !== null && 'text' in b && typeof b.text === 'string' ? b.text : ''))
    .filter((t) => t.length > 0)
    .join('\n');
}

function blockTokens(block: Record<string, unknown>): number {
  switch (block.type) {
    case 'text':
      return countTokens(String(block.text ?? ''));
    case 'thinking':
      return countTokens(String(block.thinking ?? ''));
    case 'tool_use':
      return countTokens(`${String(block.name)}${JSON.stringify(block.input ?? {})}`);
    case 'tool_result':
      return typeof block.content === 'string' ? countTokens(block.content) : Array.isArray(block.content) ? countTokens(textOf(block.content)) : 0;
    default:
      return NON_TEXT_BLOCK_TOKENS;
  }
}

/** Input tokens of a create or count_tokens request (the two always agree). */
export function countInputTokens(req: Pick<MessagesRequest, 'system' | 'messages' | 'tools'>): number {
  let total = 3 + countTokens(textOf(req.system));
  for (const message of req.messages) {
    total += 3 + countTokens(message.role);
    for (const block of message.content) total += blockTokens(block);
  }
  if (req.tools.length > 0) total += countTokens(JSON.stringify(req.tools));
  return total;
}



function lastUser(messages: readonly SimMessage[]): SimMessage | undefined {
  const last = messages.at(-1);
  return last?.role === 'user' ? last : undefined;
}

/** Tools to use: the named tool_choice; else the tools the last user turn names (or the first, for `any` or the weather). */
function toolNames(req: MessagesRequest, last: SimMessage | undefined): string[] {
  const names = req.tools.flatMap((t) => (typeof t.name === 'string' ? [t.name] : []));
  if (names.length === 0 || req.toolChoice.type === 'none') return [];
  if (req.toolChoice.type === 'tool') return [req.toolChoice.name];
  const answersTool = last?.content.some((b) => b.type === 'tool_result') ?? true;
  const text = textOf(last?.content ?? []);
  const named = answersTool ? [] : names.filter((n) => text.includes(n));
  if (named.length > 0) return req.parallelToolUse ? named : named.slice(0, 1);
  if (req.toolChoice.type === 'any') return [names[0]!];
  return !answersTool && /weather/i.test(text) ? [names[0]!] : [];
}

function visibleText(req: MessagesRequest, last: SimMessage | undefined, controls: RequestControls): string {
  if (controls.outputTokens !== null) return fillerText(controls.outputTokens);
  if (req.jsonSchema !== null) return sampleJsonText(req.jsonSchema, `${req.model}\n${JSON.stringify(req.messages)}`);
  const result = last?.content.find((b) => b.type === 'tool_result');
  if (result) {
    const text = typeof result.content === 'string' ? result.content : Array.isArray(result.content) ? textOf(result.content) : '';
    const said = words(text).slice(0, 40).join(' ');
    return singleSpaced(`Echo: the tool returned ${said.length > 0 ? said : 'nothing'}.`);
  }
  return naturalText(`${req.model}\n${JSON.stringify(req.messages)}`);
}

function thinkingWords(last: SimMessage | undefined, controls: RequestControls): string[] {
  if (controls.reasoningTokens > 0) return words(fillerText(controls.reasoningTokens));
  const asked = words(textOf(last?.content ?? [])).slice(0, 8).join(' ');
  return words(`The user wrote: ${asked || 'nothing'}. A short answer will do.`);
}

/** Cuts before the earliest stop sequence; reports which one matched. */
function stopAt(text: string, stops: readonly string[]): { text: string; stop: string | null } {
  let at = -1;
  let which: string | null = null;
  for (const stop of stops) {
    const i = stop.length > 0 ? text.indexOf(stop) : -1;
    if (i >= 0 && (at < 0 || i < at)) [at, which] = [i, stop];
  }
  return at < 0 ? { text, stop: null } : { text: text.slice(0, at).trimEnd(), stop: which };
}

export function planMessage(req: MessagesRequest, controls: RequestControls): MessagePlan {
  const cache = controls.cache;
  const seed = `${req.model}\n${JSON.stringify(req.messages)}`;
  const last = lastUser(req.messages);
  const prompt = countInputTokens(req);
  const read = Math.min(cache.read, prompt);
  const write = Math.min(cache.write, prompt - read);
  const usage: Usage = { input_tokens: prompt - read - write, cache_read_input_tokens: read, cache_creation_input_tokens: write, output_tokens: 0 };
  const thoughts = req.thinkingBudget === null ? null : thinkingWords(last, controls).slice(0, req.thinkingBudget);
  const thinking = thoughts ? { words: thoughts, signature: digest(`sig\n${thoughts.join(' ')}`).toString('base64') } : null;
  const spent = thoughts?.length ?? 0;
  if (thinking) usage.output_tokens_details = { thinking_tokens: spent };
  const id = `msg_${stableId(seed, 24)}`;
  const names = toolNames(req, last);
  if (names.length > 0) {
    const toolUses = names.map((name, i) => {
      const tool = req.tools.find((t) => t.name === name);
      // Input valid against the tool's input_schema (the fixed sample only for a tool without one).
      const input = tool && isRecord(tool.input_schema) ? sampleJsonText(tool.input_schema, `${seed}\n${i}`) : TOOL_INPUT;
      return { id: `toolu_${stableId(`tool\n${seed}${i > 0 ? `\n${i}` : ''}`, 24)}`, name, input };
    });
    usage.output_tokens = spent + toolUses.reduce((sum, u) => sum + countTokens(u.name) + countTokens(u.input), 0);
    return { id, thinking, words: [], toolUse: toolUses[0]!, toolUses, stopReason: 'tool_use', stopSequence: null, usage };
  }
  const stopped = stopAt(visibleText(req, last, controls), req.stop);
  let answer = words(stopped.text);
  let stopReason: MessagePlan['stopReason'] = stopped.stop === null ? 'end_turn' : 'stop_sequence';
  const room = Math.max(0, req.maxTokens - spent);
  if (answer.length > room) {
    answer = answer.slice(0, room);
    stopReason = 'max_tokens';
  }
  usage.output_tokens = spent + answer.length;
  return { id, thinking, words: answer, toolUse: null, toolUses: [], stopReason, stopSequence: stopReason === 'stop_sequence' ? stopped.stop : null, usage };
}
