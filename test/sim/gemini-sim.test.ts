/**
 * The Google dialect of the simulator (Gemini API and Vertex AI), checked with the official
 * `@google/genai` SDK: if the SDK cannot parse what the simulator sends, the simulator is wrong.
 */
import { ApiError, GoogleGenAI, type Content, type GenerateContentResponse, type Tool } from '@google/genai';
import { OAuth2Client } from 'google-auth-library';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { words } from '../../src/sim/text.js';

let sim: Simulator;
const MODEL = 'gemini-2.0-flash';
const ASK = 'Say something about the sea.';
const WEATHER: Tool = {
  functionDeclarations: [
    { name: 'get_weather', description: 'Weather by city', parametersJsonSchema: { type: 'object', properties: { location: { type: 'string' } } } },
  ],
};

const gemini = (prefix = '/g', apiKey = 'AIza-sim-key'): GoogleGenAI =>
  new GoogleGenAI({ apiKey, httpOptions: { baseUrl: `${sim.url}${prefix}` } });

function vertex(token: string, prefix = '/vx'): GoogleGenAI {
  const authClient = new OAuth2Client();
  authClient.setCredentials({ access_token: token, expiry_date: Date.now() + 3_600_000 });
  return new GoogleGenAI({
    vertexai: true,
    project: 'sim-project',
    location: 'us-central1',
    // The SDK defaults to v1beta1 on Vertex; v1 is the path the gateway's vertex adapter uses.
    httpOptions: { baseUrl: `${sim.url}${prefix}`, apiVersion: 'v1' },
    googleAuthOptions: { authClient },
  });
}

async function collect(stream: AsyncGenerator<GenerateContentResponse>): Promise<GenerateContentResponse[]> {
  const chunks: GenerateContentResponse[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

async function apiError(p: Promise<unknown>): Promise<ApiError> {
  const err: unknown = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe('Gemini API: text', () => {
  it('generateContent: deterministic text, STOP, usage that adds up, path and key header', async () => {
    const res = await gemini().models.generateContent({ model: MODEL, contents: ASK, config: { systemInstruction: 'Be terse.' } });
    const again = await gemini().models.generateContent({ model: MODEL, contents: ASK, config: { systemInstruction: 'Be terse.' } });
    expect(res.text).toMatch(/^Echo: /);
    expect(again.text).toBe(res.text);
    expect(res.candidates?.[0]?.finishReason).toBe('STOP');
    expect(res.modelVersion).toBe(MODEL);
    expect(res.responseId).toBeTruthy();
    const u = res.usageMetadata;
    expect(u?.candidatesTokenCount).toBe(words(res.text ?? '').length);
    expect(u?.totalTokenCount).toBe((u?.promptTokenCount ?? 0) + (u?.candidatesTokenCount ?? 0));
    const stats = sim.stats().endpoints['/g'];
    expect(stats?.lastPath).toBe(`/g/v1beta/models/${MODEL}:generateContent`);
    expect(stats?.lastHeaders['x-goog-api-key']).toBe('AIza-sim-key');
    expect(stats?.byModel[MODEL]).toBe(2);
  });

  it('generateContentStream: chunks concatenate to the whole text; only the last has finishReason and full usage', async () => {
    const whole = await gemini().models.generateContent({ model: MODEL, contents: ASK });
    const chunks = await collect(await gemini().models.generateContentStream({ model: MODEL, contents: ASK }));
    expect(chunks.length).toBe(words(whole.text ?? '').length);
    expect(chunks.map((c) => c.text ?? '').join('')).toBe(whole.text);
    expect(chunks.slice(0, -1).every((c) => c.candidates?.[0]?.finishReason === undefined)).toBe(true);
    expect(chunks.at(-1)?.candidates?.[0]?.finishReason).toBe('STOP');
    expect(chunks.at(-1)?.usageMetadata).toEqual(whole.usageMetadata);
    expect(sim.stats().endpoints['/g']?.lastPath).toBe(`/g/v1beta/models/${MODEL}:streamGenerateContent`);
  });

  it('streamGenerateContent without alt=sse streams one JSON array of the same responses', async () => {
    const url = `${sim.url}/g/v1beta/models/${MODEL}:streamGenerateContent`;
    const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: ASK }] }] });
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const chunks = (await res.json()) as { candidates: { content: { parts: { text: string }[] }; finishReason?: string }[] }[];
    const whole = await gemini().models.generateContent({ model: MODEL, contents: ASK });
    expect(chunks.map((c) => c.candidates[0]?.content.parts[0]?.text ?? '').join('')).toBe(whole.text);
    expect(chunks.at(-1)?.candidates[0]?.finishReason).toBe('STOP');
  });

  it('maxOutputTokens cuts with MAX_TOKENS and exact candidatesTokenCount', async () => {
    const res = await gemini().models.generateContent({ model: MODEL, contents: ASK, config: { maxOutputTokens: 3 } });
    expect(res.candidates?.[0]?.finishReason).toBe('MAX_TOKENS');
    expect(words(res.text ?? '')).toHaveLength(3);
    expect(res.usageMetadata?.candidatesTokenCount).toBe(3);
  });

  it('cached and thinking tokens: cachedContentTokenCount inside the prompt, thoughts outside candidates, a signature and a thought', async () => {
    const headers = { 'x-sim-cached-tokens': '4', 'x-sim-reasoning-tokens': '7' };
    const res = await gemini().models.generateContent({
      model: MODEL,
      contents: ASK,
      config: { httpOptions: { headers }, thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } },
    });
    const u = res.usageMetadata;
    expect(u?.cachedContentTokenCount).toBe(4);
    expect(u?.thoughtsTokenCount).toBe(7);
    expect(u?.totalTokenCount).toBe((u?.promptTokenCount ?? 0) + (u?.candidatesTokenCount ?? 0) + 7);
    const parts = res.candidates?.[0]?.content?.parts ?? [];
    expect(parts[0]?.thought).toBe(true);
    expect(parts[1]?.thoughtSignature).toBeTruthy();
    expect(res.text).toMatch(/^Echo: /);
  });
});

describe('Gemini API: function calling', () => {
  it('"weather" with tools -> a functionCall (stream and not), and the functionResponse round trip', async () => {
    const ask: Content[] = [{ role: 'user', parts: [{ text: 'What is the weather in Paris?' }] }];
    const res = await gemini().models.generateContent({ model: MODEL, contents: ask, config: { tools: [WEATHER] } });
    expect(res.functionCalls).toEqual([{ name: 'get_weather', args: { location: 'Paris' } }]);
    expect(res.candidates?.[0]?.finishReason).toBe('STOP');
    const chunks = await collect(await gemini().models.generateContentStream({ model: MODEL, contents: ask, config: { tools: [WEATHER] } }));
    expect(chunks.flatMap((c) => c.functionCalls ?? [])).toEqual(res.functionCalls);

    const history: Content[] = [
      ...ask,
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { location: 'Paris' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: 'sunny, 21 C' } } }] },
    ];
    const answer = await gemini().models.generateContent({ model: MODEL, contents: history, config: { tools: [WEATHER] } });
    expect(answer.functionCalls).toBeUndefined();
    expect(answer.text).toContain('sunny, 21 C');
  });

  it('toolConfig ANY with allowedFunctionNames forces that call; NONE forbids it', async () => {
    const forced = await gemini().models.generateContent({
      model: MODEL,
      contents: ASK,
      config: { tools: [WEATHER], toolConfig: { functionCallingConfig: { mode: 'ANY' as never, allowedFunctionNames: ['get_weather'] } } },
    });
    expect(forced.functionCalls?.[0]?.name).toBe('get_weather');
    const none = await gemini().models.generateContent({
      model: MODEL,
      contents: 'weather in Paris?',
      config: { tools: [WEATHER], toolConfig: { functionCallingConfig: { mode: 'NONE' as never } } },
    });
    expect(none.functionCalls).toBeUndefined();
  });
});

describe('Gemini API: errors in Google bodies', () => {
  it('a wrong key is 400 API_KEY_INVALID; a missing one 403 PERMISSION_DENIED', async () => {
    sim.configure('/g', { apiKey: 'AIza-right' });
    const wrong = await apiError(gemini('/g', 'AIza-wrong').models.generateContent({ model: MODEL, contents: ASK }));
    expect(wrong.status).toBe(400);
    expect(wrong.message).toContain('API_KEY_INVALID');
    const res = await fetch(`${sim.url}/g/v1beta/models/${MODEL}:generateContent`, { method: 'POST', body: '{"contents":[{"parts":[{"text":"hi"}]}]}' });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { status: string } }).error.status).toBe('PERMISSION_DENIED');
    await expect(gemini('/g', 'AIza-right').models.generateContent({ model: MODEL, contents: ASK })).resolves.toBeDefined();
  });

  for (const [fault, status, grpc] of [
    ['429', 429, 'RESOURCE_EXHAUSTED'],
    ['500', 500, 'INTERNAL'],
    ['503', 503, 'UNAVAILABLE'],
    ['400', 400, 'INVALID_ARGUMENT'],
  ] as const) {
    it(`fault ${fault} -> ApiError ${status} ${grpc} (stream too)`, async () => {
      sim.configure('/g', { fault, faultCount: 2 });
      const err = await apiError(gemini().models.generateContent({ model: MODEL, contents: ASK }));
      expect(err.status).toBe(status);
      expect(err.message).toContain(grpc);
      const streamed = await apiError(gemini().models.generateContentStream({ model: MODEL, contents: ASK }));
      expect(streamed.status).toBe(status);
    });
  }

  it('an unknown model is 404 NOT_FOUND; an unknown field 400 "Cannot find field"', async () => {
    const err = await apiError(gemini().models.generateContent({ model: 'no-such-model', contents: ASK }));
    expect(err.status).toBe(404);
    expect(err.message).toContain('NOT_FOUND');
    const res = await fetch(`${sim.url}/g/v1beta/models/${MODEL}:generateContent`, {
      method: 'POST',
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], max_tokens: 5 }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('Unknown name "max_tokens"');
  });
});

describe('Vertex AI mode', () => {
  it('the SDK in Vertex mode reaches the publisher path with a Bearer token; text and stream parse', async () => {
    sim.configure('/vx', { apiKey: 'ya29.sim-token' });
    const res = await vertex('ya29.sim-token').models.generateContent({ model: MODEL, contents: ASK });
    expect(res.text).toMatch(/^Echo: /);
    expect(res.createTime).toBeTruthy();
    const stats = sim.stats().endpoints['/vx'];
    expect(stats?.lastPath).toBe(`/vx/v1/projects/sim-project/locations/us-central1/publishers/google/models/${MODEL}:generateContent`);
    expect(stats?.lastHeaders.authorization).toBe('Bearer ya29.sim-token');
    const chunks = await collect(await vertex('ya29.sim-token').models.generateContentStream({ model: MODEL, contents: ASK }));
    expect(chunks.map((c) => c.text ?? '').join('')).toBe(res.text);
  });

  it('express mode (API key, no project) uses the bare publisher path and the key header', async () => {
    sim.configure('/vxe', { apiKey: 'express-key' });
    const express = new GoogleGenAI({ vertexai: true, apiKey: 'express-key', httpOptions: { baseUrl: `${sim.url}/vxe`, apiVersion: 'v1' } });
    const res = await express.models.generateContent({ model: MODEL, contents: ASK });
    expect(res.text).toMatch(/^Echo: /);
    expect(sim.stats().endpoints['/vxe']?.lastPath).toBe(`/vxe/v1/publishers/google/models/${MODEL}:generateContent`);
  });

  it('a wrong token is 401 UNAUTHENTICATED; a fault 429 is RESOURCE_EXHAUSTED in Vertex wording', async () => {
    sim.configure('/vx', { apiKey: 'ya29.right' });
    const err = await apiError(vertex('ya29.wrong').models.generateContent({ model: MODEL, contents: ASK }));
    expect(err.status).toBe(401);
    expect(err.message).toContain('UNAUTHENTICATED');
    sim.configure('/vx', { fault: '429', faultCount: 1 });
    const limited = await apiError(vertex('ya29.right').models.generateContent({ model: MODEL, contents: ASK }));
    expect(limited.status).toBe(429);
    expect(limited.message).toContain('error-code-429');
  });
});
