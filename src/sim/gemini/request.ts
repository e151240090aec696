/**
 * Decodes a `GenerateContentRequest` the way Google's proto-JSON front end does where a gateway can trip:
 * unknown fields are refused (`Unknown name "x": Cannot find field.`), camelCase and snake_case field names
 * are both accepted, `contents` is required and roles are user/model. The request is then restated as the
 * simulator's chat request, so the answer, the tool-call decision and the token counts are the same
 * deterministic plan every dialect uses.
 */
import type { JsonReply } from '../http.js';
import { isRecord } from '../http.js';
import type { ChatMessage, ChatRequest, ToolChoice } from '../openai/request.js';
import { googleError } from './errors.js';

const TOP_LEVEL = new Set([
  'model', 'contents', 'systemInstruction', 'tools', 'toolConfig', 'safetySettings', 'generationConfig',
  'cachedContent', 'labels', 'serviceTier',
]);
const GENERATION = new Set([
  'stopSequences', 'responseMimeType', 'responseSchema', 'responseJsonSchema', 'responseModalities', 'candidateCount',
  'maxOutputTokens', 'temperature', 'topP', 'topK', 'seed', 'presencePenalty', 'frequencyPenalty', 'responseLogprobs',
  'logprobs', 'enableEnhancedCivicAnswers', 'speechConfig', 'thinkingConfig', 'mediaResolution', 'imageConfig',
  'audioTimestamp', 'routingConfig', 'modelSelectionConfig',
]);

export interface GeminiRequest {
  chat: ChatRequest;
  /** generationConfig.thinkingConfig.includeThoughts */
  includeThoughts: boolean;
}

export type GeminiParse = { ok: true; request: GeminiRequest } | { ok: false; error: JsonReply };

const invalid = (message: string): GeminiParse => ({ ok: false, error: googleError(400, 'INVALID_ARGUMENT', message) });

const camel = (key: string): string => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** The object with snake_case keys renamed, or the name of the first unknown field. */
function normalize(obj: Record<string, unknown>, known: ReadonlySet<string>): Record<string, unknown> | string {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    const name = camel(key);
    if (!known.has(name)) return key;
    out[name] = value;
  }
  return out;
}

function partsOf(content: unknown): Record<string, unknown>[] {
  return isRecord(content) && Array.isArray(content.parts) ? content.parts.filter(isRecord) : [];
}

/** Parts as OpenAI-style parts for the shared token count: text as text, anything else one media part. */
function chatParts(parts: Record<string, unknown>[]): unknown[] {
  return parts.map((p) => (typeof p.text === 'string' ? { type: 'text', text: p.text } : { type: 'media' }));
}

function toMessage(content: Record<string, unknown>): ChatMessage {
  const parts = partsOf(content);
  const responses = parts.flatMap((p) => (isRecord(p.functionResponse) ? [p.functionResponse] : []));
  if (responses.length > 0) return { role: 'tool', content: responses.map((r) => JSON.stringify(r.response ?? {})).join('\n') };
  if (content.role === 'model') {
    const calls = parts.flatMap((p) =>
      isRecord(p.functionCall) ? [{ function: { name: p.functionCall.name, arguments: JSON.stringify(p.functionCall.args ?? {}) } }] : [],
    );
    const message: ChatMessage = { role: 'assistant', content: chatParts(parts.filter((p) => p.thought !== true && typeof p.text === 'string')) };
    if (calls.length > 0) message.tool_calls = calls;
    return message;
  }
  return { role: 'user', content: chatParts(parts) };
}

function toolsOf(tools: unknown): { names: string[]; declarations: unknown[] } {
  const declarations = (Array.isArray(tools) ? tools : []).flatMap((t) => {
    if (!isRecord(t)) return [];
    const list = t.functionDeclarations ?? t.function_declarations;
    return Array.isArray(list) ? list.filter(isRecord) : [];
  });
  const names = declarations.flatMap((d) => (typeof d.name === 'string' ? [d.name] : []));
  return { names, declarations: declarations.map((d) => ({ type: 'function', function: d })) };
}

/** JSON mode: `responseJsonSchema` (JSON Schema) or `responseSchema` (OpenAPI subset), or plain JSON by MIME type. */
function jsonSchemaOf(g: Record<string, unknown>): Record<string, unknown> | null {
  const schema = g.responseJsonSchema ?? g.response_json_schema ?? g.responseSchema ?? g.response_schema;
  if (isRecord(schema)) return schema;
  const mime = g.responseMimeType ?? g.response_mime_type;
  return mime === 'application/json' ? {} : null;
}

function toolChoiceOf(config: unknown): ToolChoice {
  const fc = isRecord(config) ? (config.functionCallingConfig ?? config.function_calling_config) : undefined;
  if (!isRecord(fc)) return 'auto';
  const allowed = fc.allowedFunctionNames ?? fc.allowed_function_names;
  if (fc.mode === 'NONE') return 'none';
  if (fc.mode !== 'ANY') return 'auto';
  return Array.isArray(allowed) && allowed.length === 1 && typeof allowed[0] === 'string' ? { name: allowed[0] } : 'required';
}

function systemMessage(value: unknown): ChatMessage[] {
  if (value === undefined) return [];
  const text = typeof value === 'string' ? value : partsOf(value).map((p) => (typeof p.text === 'string' ? p.text : '')).join('\n');
  return [{ role: 'system', content: text }];
}

export function parseGeminiRequest(json: unknown, model: string, stream: boolean): GeminiParse {
  if (!isRecord(json)) return invalid('Invalid JSON payload received. Expected an object.');
  const body = normalize(json, TOP_LEVEL);
  if (typeof body === 'string') return invalid(`Invalid JSON payload received. Unknown name "${body}": Cannot find field.`);
  const generation = isRecord(body.generationConfig) ? normalize(body.generationConfig, GENERATION) : {};
  if (typeof generation === 'string') {
    return invalid(`Invalid JSON payload received. Unknown name "${generation}" at 'generation_config': Cannot find field.`);
  }
  if (!Array.isArray(body.contents) || body.contents.length === 0) {
    return invalid('* GenerateContentRequest.contents: contents is not specified\n');
  }
  const contents = body.contents.filter(isRecord);
  if (contents.some((c) => c.role !== undefined && c.role !== '' && c.role !== 'user' && c.role !== 'model')) {
    return invalid('Please use a valid role: user, model.');
  }
  const max = generation.maxOutputTokens;
  const tools = toolsOf(body.tools);
  const thinking = isRecord(generation.thinkingConfig) ? generation.thinkingConfig : {};
  return {
    ok: true,
    request: {
      includeThoughts: thinking.includeThoughts === true || thinking.include_thoughts === true,
      chat: {
        model,
        messages: [...systemMessage(body.systemInstruction), ...contents.map(toMessage)],
        stream,
        includeUsage: true,
        maxTokens: typeof max === 'number' && Number.isInteger(max) && max > 0 ? max : null,
        stop: Array.isArray(generation.stopSequences) ? generation.stopSequences.filter((s): s is string => typeof s === 'string') : [],
        toolNames: tools.names,
        tools: tools.declarations,
        toolChoice: toolChoiceOf(body.toolConfig),
        jsonSchema: jsonSchemaOf(generation),
        toolSchemas: Object.fromEntries(
          tools.declarations.flatMap((d) => {
            const fn = isRecord(d) && isRecord(d.function) ? d.function : {};
            return typeof fn.name === 'string' ? [[fn.name, fn.parametersJsonSchema ?? fn.parameters_json_schema ?? fn.parameters ?? {}]] : [];
          }),
        ),
        parallelToolCalls: true,
      },
    },
  };
}
