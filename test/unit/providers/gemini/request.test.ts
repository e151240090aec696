/** Canonical request -> GenerateContentRequest: table of whole expected bodies, plus the URL envelope. */
import { describe, expect, it } from 'vitest';
import type { CanonicalRequest, JsonObject } from '../../../../src/canonical/types.js';
import { geminiAdapter } from '../../../../src/providers/gemini/adapter.js';
import { SKIP_SIGNATURE, toGeminiRequest } from '../../../../src/providers/gemini/request.js';
import { canonical } from '../openai/helpers.js';

const SCHEMA = { type: 'object', properties: { location: { type: 'string' } }, required: ['location'], additionalProperties: false };
const WEATHER = { name: 'get_weather', description: 'Weather by city', parameters: SCHEMA };

const CASES: { name: string; req: CanonicalRequest; body: JsonObject }[] = [
  {
    name: 'system and developer text as systemInstruction; every sampling field; a JSON schema answer',
    req: canonical({
      system: [
        { role: 'system', text: 'Be terse.' },
        { role: 'developer', text: 'Answer in French.' },
      ],
      temperature: 0.5,
      topP: 0.9,
      topK: 40,
      stop: ['END'],
      seed: 3,
      presencePenalty: 0.1,
      frequencyPenalty: 0.2,
      n: 2,
      responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object' } },
      user: 'dropped: Gemini has no end-user field',
    }),
    body: {
      contents: [{ role: 'user', parts: [{ text: 'Hello' }] }],
      systemInstruction: { parts: [{ text: 'Be terse.' }, { text: 'Answer in French.' }] },
      generationConfig: {
        maxOutputTokens: 100,
        temperature: 0.5,
        topP: 0.9,
        topK: 40,
        stopSequences: ['END'],
        candidateCount: 2,
        presencePenalty: 0.1,
        frequencyPenalty: 0.2,
        seed: 3,
        responseMimeType: 'application/json',
        responseJsonSchema: { type: 'object' },
      },
    },
  },
  {
    name: 'images: URL as fileData (MIME from the extension), data URL and base64 as inlineData',
    req: canonical({
      responseFormat: { type: 'json_object' },
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare.' },
            { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.PNG?size=2' } },
            { type: 'image', source: { kind: 'url', url: 'gs://bucket/scan' } },
            { type: 'image', source: { kind: 'url', url: 'data:image/webp;base64,UklGRg==' } },
            { type: 'image', source: { kind: 'base64', mediaType: 'image/jpeg', data: '/9j/4AAQ' } },
          ],
        },
      ],
    }),
    body: {
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'Compare.' },
            { fileData: { mimeType: 'image/png', fileUri: 'https://example.com/cat.PNG?size=2' } },
            { fileData: { mimeType: 'image/jpeg', fileUri: 'gs://bucket/scan' } },
            { inlineData: { mimeType: 'image/webp', data: 'UklGRg==' } },
            { inlineData: { mimeType: 'image/jpeg', data: '/9j/4AAQ' } },
          ],
        },
      ],
      generationConfig: { maxOutputTokens: 100, responseMimeType: 'application/json' },
    },
  },
  {
    name: 'a foreign tool round trip: calls by name (first one with the skip signature), responses merged into one turn',
    req: canonical({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Tokyo?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"location":"Paris"}' },
            { type: 'tool_call', id: 'call_2', name: 'get_weather', arguments: 'not json' },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool_result', toolCallId: 'call_1', content: [{ type: 'text', text: '{"temp":21}' }] },
            {
              type: 'tool_result',
              toolCallId: 'call_2',
              isError: true,
              content: [
                { type: 'text', text: 'station offline' },
                { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBO' } },
              ],
            },
            { type: 'tool_result', toolCallId: 'call_unknown', content: [{ type: 'text', text: '42' }] },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
      ],
      tools: [WEATHER],
      toolChoice: { type: 'required' },
    }),
    body: {
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris and Tokyo?' }] },
        {
          role: 'model',
          parts: [
            { text: 'Checking.' },
            { functionCall: { name: 'get_weather', args: { location: 'Paris' } }, thoughtSignature: SKIP_SIGNATURE },
            { functionCall: { name: 'get_weather', args: {} } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get_weather', response: { temp: 21 } } },
            { functionResponse: { name: 'get_weather', response: { error: 'station offline' } } },
            { functionResponse: { name: 'call_unknown', response: { output: '42' } } },
            { inlineData: { mimeType: 'image/png', data: 'iVBO' } },
            { text: 'Thanks' },
          ],
        },
      ],
      tools: [{ functionDeclarations: [{ name: 'get_weather', description: 'Weather by city', parametersJsonSchema: SCHEMA }] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY' } },
      generationConfig: { maxOutputTokens: 100 },
    },
  },
  {
    name: "Gemini's own signatures go back where they came from; a forced tool; a thinking effort",
    req: canonical({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Go' }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', text: 'plan', signature: 'sigA' },
            { type: 'thinking', text: '', signature: 'sigB' },
            { type: 'tool_call', id: 'call_r_0', name: 'get_weather', arguments: '{}' },
          ],
        },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_r_0', content: [{ type: 'text', text: 'ok' }] }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Done.' }, { type: 'thinking', text: '', signature: 'sigC' }] },
      ],
      tools: [{ name: 'get_weather', parameters: { type: 'object' } }],
      toolChoice: { type: 'tool', name: 'get_weather' },
      reasoning: { effort: 'high' },
    }),
    body: {
      contents: [
        { role: 'user', parts: [{ text: 'Go' }] },
        {
          role: 'model',
          parts: [
            { text: 'plan', thought: true, thoughtSignature: 'sigA' },
            { functionCall: { name: 'get_weather', args: {} }, thoughtSignature: 'sigB' },
          ],
        },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: 'ok' } } }] },
        { role: 'model', parts: [{ text: 'Done.', thoughtSignature: 'sigC' }] },
      ],
      tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: { type: 'object' } }] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
      generationConfig: { maxOutputTokens: 100, thinkingConfig: { thinkingBudget: 24576, includeThoughts: true } },
    },
  },
  {
    name: 'tool choice none; minimal effort turns thinking off',
    req: canonical({ tools: [{ name: 'f', parameters: {} }], toolChoice: { type: 'none' }, reasoning: { effort: 'minimal' } }),
    body: {
      contents: [{ role: 'user', parts: [{ text: 'Hello' }] }],
      tools: [{ functionDeclarations: [{ name: 'f', parametersJsonSchema: {} }] }],
      toolConfig: { functionCallingConfig: { mode: 'NONE' } },
      generationConfig: { maxOutputTokens: 100, thinkingConfig: { thinkingBudget: 0 } },
    },
  },
];

describe('toGeminiRequest', () => {
  for (const c of CASES) {
    it(c.name, () => {
      expect(toGeminiRequest(c.req, 100)).toEqual(c.body);
    });
  }
});

describe('geminiAdapter.buildRequest', () => {
  const ep = { provider: 'gemini', upstreamModel: 'models/gemini-2.0-flash', baseUrl: 'https://generativelanguage.googleapis.com/v1beta/', apiKeyEnv: 'GEMINI_API_KEY' };
  const ctx = { env: { GEMINI_API_KEY: 'AIza-k' }, maxTokens: 50, now: new Date() };
  it('generateContent with x-goog-api-key (never ?key= in the URL)', () => {
    const up = geminiAdapter.buildRequest(canonical(), ep, ctx);
    expect(up.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent');
    expect(up.headers).toEqual({ 'content-type': 'application/json', 'x-goog-api-key': 'AIza-k' });
  });

  it('streamGenerateContent?alt=sse when streaming', () => {
    const up = geminiAdapter.buildRequest(canonical({ stream: true }), ep, ctx);
    expect(up.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse');
    expect(up.headers.accept).toBe('text/event-stream');
    expect(JSON.parse(String(up.body))).toEqual({ contents: [{ role: 'user', parts: [{ text: 'Hello' }] }], generationConfig: { maxOutputTokens: 50 } });
  });

  it('not a chat passthrough target: the byte path must never call chatRequest', () => {
    expect(geminiAdapter.capabilities.chatPassthrough).toBe(false);
    expect(() => geminiAdapter.chatRequest(ep, {})).toThrow(/does not take chat-completions bodies/);
  });
});
