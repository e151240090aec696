/**
 * Canonical request -> `GenerateContentRequest` (Gemini API reference, "models.generateContent"; the same
 * body Vertex AI takes). Turns are `contents` with role user/model; consecutive turns of one role are
 * merged, so the results of parallel calls travel in one content as the API wants. Tool schemas and the
 * response schema go as `parametersJsonSchema` / `responseJsonSchema`: full JSON Schema, no lossy
 * conversion to the OpenAPI subset of `parameters` / `responseSchema`.
 */
import type {
  CanonicalMessage,
  CanonicalRequest,
  ContentPart,
  ImagePart,
  JsonObject,
  ReasoningConfig,
  ToolChoice,
  ToolResultPart,
} from '../../canonical/types.js';

/**
 * Gemini 3 refuses a function-call history without the thought signature it issued; a history from
 * another model has none. Google documents this value for exactly that case ("Thought signatures").
 */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator';

const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
  pdf: 'application/pdf',
};

function imagePart(p: ImagePart): JsonObject {
  const s = p.source;
  if (s.kind === 'base64') return { inlineData: { mimeType: s.mediaType, data: s.data } };
  const data = /^data:([^;,]+);base64,(.*)$/s.exec(s.url);
  if (data) return { inlineData: { mimeType: data[1] ?? 'image/jpeg', data: data[2] ?? '' } };
  const ext = /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(s.url)?.[1]?.toLowerCase() ?? '';
  return { fileData: { mimeType: MIME_BY_EXTENSION[ext] ?? 'image/jpeg', fileUri: s.url } };
}

/** Tool arguments as the Struct `args` wants; text that is not a JSON object becomes `{}`. */
function argsOf(json: string): JsonObject {
  try {
    const v: unknown = JSON.parse(json);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : {};
  } catch {
    return {};
  }
}

/** A tool result as a functionResponse `response` Struct: a JSON object as is, else `{output}` / `{error}`. */
function responseOf(r: ToolResultPart): JsonObject {
  const text = r.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
  if (!r.isError) {
    const parsed = argsOf(text);
    if (Object.keys(parsed).length > 0) return parsed;
  }
  return r.isError ? { error: text } : { output: text };
}

function modelParts(m: CanonicalMessage): JsonObject[] {
  const parts: JsonObject[] = [];
  let signature: string | undefined;
  let signedCall = false;
  for (const c of m.content) {
    let part: JsonObject;
    if (c.type === 'thinking') {
      // A signature Gemini put on a non-thought part arrives as an empty thinking part just before it
      // (see response.ts): it rides on the next part again. Thought text goes back as a thought part.
      if (c.text === '') {
        if (c.signature) signature = c.signature;
        continue;
      }
      part = { text: c.text, thought: true };
      if (c.signature) part.thoughtSignature = c.signature;
      parts.push(part);
      continue;
    }
    if (c.type === 'text') part = { text: c.text };
    else if (c.type === 'tool_call') {
      part = { functionCall: { name: c.name, args: argsOf(c.arguments) } };
      if (!signedCall && signature === undefined) signature = SKIP_SIGNATURE;
      signedCall = true;
    } else continue;
    if (signature !== undefined) part.thoughtSignature = signature;
    signature = undefined;
    parts.push(part);
  }
  // A signature streamed after the last part (an empty final chunk) belongs to that last part.
  const last = parts.at(-1);
  if (signature !== undefined && last && last.thoughtSignature === undefined) last.thoughtSignature = signature;
  return parts;
}

function userParts(m: CanonicalMessage, names: ReadonlyMap<string, string>): JsonObject[] {
  const parts: JsonObject[] = [];
  const images: JsonObject[] = [];
  for (const c of m.content as ContentPart[]) {
    if (c.type === 'text') parts.push({ text: c.text });
    else if (c.type === 'image') parts.push(imagePart(c));
    else if (c.type === 'tool_result') {
      const name = names.get(c.toolCallId) ?? c.toolCallId;
      parts.push({ functionResponse: { name, response: responseOf(c) } });
      for (const img of c.content) if (img.type === 'image') images.push(imagePart(img));
    }
  }
  // Images a tool returned follow its response in the same turn, so the model sees them.
  return [...parts, ...images];
}

export function geminiContents(messages: CanonicalMessage[]): JsonObject[] {
  const names = new Map<string, string>();
  const contents: { role: string; parts: JsonObject[] }[] = [];
  for (const m of messages) {
    for (const c of m.content) if (c.type === 'tool_call') names.set(c.id, c.name);
    const role = m.role === 'assistant' ? 'model' : 'user';
    const parts = role === 'model' ? modelParts(m) : userParts(m, names);
    if (parts.length === 0) continue;
    const last = contents.at(-1);
    if (last && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  }
  return contents.map((c) => ({ role: c.role, parts: c.parts }));
}

function toolConfig(c: ToolChoice): JsonObject {
  if (c.type === 'tool') return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [c.name] } };
  const mode = c.type === 'required' ? 'ANY' : c.type === 'none' ? 'NONE' : 'AUTO';
  return { functionCallingConfig: { mode } };
}

/** OpenAI-style effort as a Gemini 2.5 thinking budget (tokens); a budget is passed through. */
const BUDGET_BY_EFFORT: Readonly<Record<string, number>> = { minimal: 0, low: 1024, medium: 8192, high: 24576 };

function thinkingConfig(r: ReasoningConfig): JsonObject | null {
  const budget = r.budgetTokens ?? (r.effort ? BUDGET_BY_EFFORT[r.effort] : undefined);
  if (budget === undefined) return null;
  // Thought summaries only when thinking is on: they become the canonical thinking blocks.
  return budget > 0 ? { thinkingBudget: budget, includeThoughts: true } : { thinkingBudget: 0 };
}

function generationConfig(req: CanonicalRequest, maxTokens: number): JsonObject {
  const g: JsonObject = { maxOutputTokens: maxTokens };
  if (req.temperature !== undefined) g.temperature = req.temperature;
  if (req.topP !== undefined) g.topP = req.topP;
  if (req.topK !== undefined) g.topK = req.topK;
  if (req.stop.length > 0) g.stopSequences = req.stop;
  if (req.n !== 1) g.candidateCount = req.n;
  if (req.presencePenalty !== undefined) g.presencePenalty = req.presencePenalty;
  if (req.frequencyPenalty !== undefined) g.frequencyPenalty = req.frequencyPenalty;
  if (req.seed !== undefined) g.seed = req.seed;
  const f = req.responseFormat;
  if (f && f.type !== 'text') {
    g.responseMimeType = 'application/json';
    if (f.type === 'json_schema') g.responseJsonSchema = f.schema;
  }
  const thinking = req.reasoning ? thinkingConfig(req.reasoning) : null;
  if (thinking) g.thinkingConfig = thinking;
  return g;
}

export function toGeminiRequest(req: CanonicalRequest, maxTokens: number): JsonObject {
  const body: JsonObject = { contents: geminiContents(req.messages) };
  if (req.system.length > 0) body.systemInstruction = { parts: req.system.map((s) => ({ text: s.text })) };
  if (req.tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: req.tools.map((t) => {
          const fn: JsonObject = { name: t.name, parametersJsonSchema: t.parameters };
          if (t.description !== undefined) fn.description = t.description;
          return fn;
        }),
      },
    ];
  }
  if (req.toolChoice) body.toolConfig = toolConfig(req.toolChoice);
  body.generationConfig = generationConfig(req, maxTokens);
  return body;
}
