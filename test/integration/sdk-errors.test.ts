import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { post, snapshot, type Snapshot } from '../helpers/refusal.js';

/** Refusals read through the official SDKs: the error class, a readable message, the contract fields. */
describe('errors the official SDKs can read, each on its own routes', () => {
  let t: TestGateway;
  let anthropic: Anthropic;
  let openai: OpenAI;
  const msg = { max_tokens: 8, messages: [{ role: 'user' as const, content: 'hello' }] };

  beforeAll(async () => {
    t = await startTestGateway({ config: { guardrails: { mode: 'off' }, maxBodyBytes: 65_536 } });
    // The base URLs exactly as the README gives them (the Anthropic SDK adds /v1 itself).
    anthropic = new Anthropic({ baseURL: t.url, apiKey: t.key, maxRetries: 0 });
    openai = new OpenAI({ baseURL: `${t.url}/v1`, apiKey: t.key, maxRetries: 0 });
  });
  afterAll(async () => t.close());

  const unchanged = async (before: Snapshot): Promise<void> => {
    await new Promise((r) => setTimeout(r, 20));
    expect(await snapshot(t)).toEqual(before);
  };

  it('messages, unknown model: NotFoundError with the message, type and code readable; $0, no upstream call', async () => {
    const before = await snapshot(t);
    const err = await anthropic.messages.create({ ...msg, model: 'claude-nope' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.NotFoundError);
    const e = err as InstanceType<typeof Anthropic.NotFoundError>;
    expect(e.status).toBe(404);
    expect(e.message).toBe('404 The model claude-nope does not exist or is not available.');
    expect(e.apiMessage).toBe('The model claude-nope does not exist or is not available.');
    expect(e.type).toBe('invalid_request');
    expect(e.errorCode).toBe('model_not_found');
    expect(e.headers.get('x-svc-request-id')).toBeTruthy();
    expect(e.headers.get('x-svc-request-cost')).toBeNull();
    await unchanged(before);
  });

  it('messages, wire shape: the messages envelope around the unchanged contract error object', async () => {
    const before = await snapshot(t);
    const res = await post(t, '/v1/messages', { ...msg, model: 'claude-nope' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      type: 'error',
      error: {
        message: 'The model claude-nope does not exist or is not available.',
        type: 'invalid_request',
        code: 'model_not_found',
        details: { error_code: 'model_not_found' },
      },
      message: 'The model claude-nope does not exist or is not available.',
    });
    await unchanged(before);
  });

  it('messages, wrong key (x-api-key): AuthenticationError, readable', async () => {
    const before = await snapshot(t);
    const bad = new Anthropic({ baseURL: t.url, apiKey: 'sk-svc-not-a-real-key-000000000000', maxRetries: 0 });
    const err = await bad.messages.create({ ...msg, model: 'anthropic/claude-sonnet-4' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.AuthenticationError);
    const e = err as InstanceType<typeof Anthropic.AuthenticationError>;
    expect(e.message).toBe('401 Invalid API key.');
    expect(e.errorCode).toBe('invalid_api_key');
    expect(e.headers.get('x-svc-auth-reason')).toBe('unauthorized');
    await unchanged(before);
  });

  it('messages, missing max_tokens: BadRequestError naming the field', async () => {
    const before = await snapshot(t);
    const err = await anthropic.messages
      .create({ model: 'anthropic/claude-sonnet-4', messages: msg.messages } as unknown as Anthropic.MessageCreateParamsNonStreaming)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    const e = err as InstanceType<typeof Anthropic.BadRequestError>;
    expect(e.message).toMatch(/^400 .*max_tokens/);
    expect(e.message).not.toContain('{');
    expect(e.errorCode).toBe('invalid_request');
    await unchanged(before);
  });

  it('messages, body over the cap (refused before any handler): 413 in the same readable envelope', async () => {
    const before = await snapshot(t);
    const big = 'x'.repeat(70_000);
    const err = await anthropic.messages.create({ ...msg, model: 'anthropic/claude-sonnet-4', messages: [{ role: 'user', content: big }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    const e = err as InstanceType<typeof Anthropic.APIError>;
    expect(e.status).toBe(413);
    expect(e.message).toBe('413 Request body exceeds the 65536-byte limit.');
    expect(e.errorCode).toBe('payload_too_large');
    await unchanged(before);
  });

  it('count_tokens, unknown model: the same readable envelope', async () => {
    const err = await anthropic.messages.countTokens({ model: 'claude-nope', messages: msg.messages }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.NotFoundError);
    expect((err as Error).message).toBe('404 The model claude-nope does not exist or is not available.');
  });

  it('chat completions keep the plain contract object, which the OpenAI SDK reads', async () => {
    const before = await snapshot(t);
    const err = await openai.chat.completions.create({ model: 'gpt-nope', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    const e = err as InstanceType<typeof OpenAI.NotFoundError>;
    expect(e.message).toBe('404 The model gpt-nope does not exist or is not available.');
    expect(e.code).toBe('model_not_found');
    expect(e.type).toBe('invalid_request');
    const res = await post(t, '/v1/chat/completions', { model: 'gpt-nope', messages: [{ role: 'user', content: 'hi' }] });
    expect(Object.keys((await res.json()) as object)).toEqual(['error']);
    await unchanged(before);
  });
});

describe('dated model ids copied from provider docs', () => {
  let t: TestGateway;
  let anthropic: Anthropic;
  beforeAll(async () => {
    t = await startTestGateway({ config: { guardrails: { mode: 'off' } } });
    anthropic = new Anthropic({ baseURL: t.url, apiKey: t.key, maxRetries: 0 });
  });
  afterAll(async () => t.close());

  it('claude-sonnet-4-20250514 is the catalog model anthropic/claude-sonnet-4 (same snapshot, same price)', async () => {
    const { data, response } = await anthropic.messages
      .create({ model: 'claude-sonnet-4-20250514', max_tokens: 8, messages: [{ role: 'user', content: 'hello' }] })
      .withResponse();
    expect(data.type).toBe('message');
    expect(response.headers.get('x-svc-model')).toBe('anthropic/claude-sonnet-4');
    expect(Number(response.headers.get('x-svc-request-cost'))).toBeGreaterThan(0);
    const detail = await fetch(`${t.url}/v1/models/claude-sonnet-4-20250514`, { headers: { authorization: `Bearer ${t.key}` } });
    expect(((await detail.json()) as { id: string }).id).toBe('anthropic/claude-sonnet-4');
  });

  it('the bare name and the OpenAI dated id resolve too; another snapshot of the same family does not', async () => {
    const chat = (model: string): Promise<Response> => post(t, '/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 });
    const bare = await chat('claude-sonnet-4');
    expect(bare.status).toBe(200);
    expect(bare.headers.get('x-svc-model')).toBe('anthropic/claude-sonnet-4');
    const dated = await chat('gpt-4o-mini-2024-07-18');
    expect(dated.status).toBe(200);
    expect(dated.headers.get('x-svc-model')).toBe('gpt-4o-mini');
    const before = await snapshot(t);
    const other = await chat('gpt-4o-2024-05-13');
    expect(other.status).toBe(404);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe('model_not_found');
    await new Promise((r) => setTimeout(r, 20));
    expect(await snapshot(t)).toEqual(before);
  });

  it('a key scoped to a model may use its dated id, and a key scoped elsewhere may not', async () => {
    const scoped = await t.addKey({ allowedModels: ['gpt-4o-mini'] });
    const chat = (model: string): Promise<Response> =>
      post(t, '/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 }, { authorization: `Bearer ${scoped.value}` });
    expect((await chat('gpt-4o-mini-2024-07-18')).status).toBe(200);
    expect((await chat('claude-sonnet-4-20250514')).status).toBe(404);
  });
});
