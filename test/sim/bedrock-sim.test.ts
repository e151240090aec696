/**
 * The Bedrock Runtime simulator, checked with the official `@aws-sdk/client-bedrock-runtime`: Converse and
 * ConverseStream (binary event stream) parse, exceptions map to the SDK's classes, and the simulator
 * verifies the SDK's SigV4 signatures. Our own signer is compared with `@smithy/signature-v4`.
 * The SDK's default handler speaks HTTP/2; the simulator is HTTP/1.1, so the tests use NodeHttpHandler.
 */
import { Sha256 } from '@aws-crypto/sha256-js';
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  InternalServerException,
  ServiceUnavailableException,
  ThrottlingException,
  ValidationException,
  type ConverseCommandInput,
  type ConverseStreamOutput,
  type Message,
} from '@aws-sdk/client-bedrock-runtime';
import { SignatureV4 } from '@smithy/signature-v4';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signRequest } from '../../src/providers/bedrock/sigv4.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { words } from '../../src/sim/text.js';

const CREDS = { accessKeyId: 'AKIASIMULATOR0001', secretAccessKey: 'sim/secret+key/0123456789abcdefghijklmn' };
const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const ASK: ConverseCommandInput = { modelId: MODEL, system: [{ text: 'Be terse.' }], messages: [{ role: 'user', content: [{ text: 'Say something about the sea.' }] }] };
const WEATHER = { toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object', properties: { location: { type: 'string' } } } } } };
const WEATHER_ASK: Message[] = [{ role: 'user', content: [{ text: 'What is the weather in Paris?' }] }];

let sim: Simulator;

function bedrock(opts: { headers?: Record<string, string>; credentials?: typeof CREDS & { sessionToken?: string }; prefix?: string } = {}): BedrockRuntimeClient {
  const client = new BedrockRuntimeClient({
    region: 'us-east-1',
    endpoint: `${sim.url}${opts.prefix ?? '/br'}`,
    credentials: opts.credentials ?? CREDS,
    maxAttempts: 1,
    requestHandler: new NodeHttpHandler({ requestTimeout: 2000 }),
  });
  const headers = opts.headers ?? {};
  // Added before signing, like any header a caller sets: the simulator verifies them as signed headers.
  client.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { headers: Record<string, string> };
      Object.assign(request.headers, headers);
      return next(args);
    },
    { step: 'build' },
  );
  return client;
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.reset();
  sim.configure('/br', { sigv4: CREDS });
});

async function collect(stream: AsyncIterable<ConverseStreamOutput> | undefined): Promise<ConverseStreamOutput[]> {
  const events: ConverseStreamOutput[] = [];
  for await (const event of stream ?? []) events.push(event);
  return events;
}

const text = (m: Message | undefined): string => (m?.content ?? []).map((b) => b.text ?? '').join('');

describe('Converse and ConverseStream', () => {
  it('text: output message, end_turn, usage and metrics; the stream concatenates to the same text and usage', async () => {
    const client = bedrock();
    const whole = await client.send(new ConverseCommand(ASK));
    const answer = text(whole.output?.message);
    expect(answer).toMatch(/^Echo: /);
    expect(whole.stopReason).toBe('end_turn');
    expect(whole.usage?.outputTokens).toBe(words(answer).length);
    expect(whole.usage?.totalTokens).toBe((whole.usage?.inputTokens ?? 0) + (whole.usage?.outputTokens ?? 0));
    expect(whole.metrics?.latencyMs).toBeGreaterThanOrEqual(0);
    const events = await collect((await client.send(new ConverseStreamCommand(ASK))).stream);
    expect(events[0]?.messageStart?.role).toBe('assistant');
    expect(events.map((e) => e.contentBlockDelta?.delta?.text ?? '').join('')).toBe(answer);
    expect(events.at(-2)?.messageStop?.stopReason).toBe('end_turn');
    expect(events.at(-1)?.metadata?.usage).toEqual(whole.usage);
  });

  it('tool use round trip, non-stream and stream', async () => {
    const client = bedrock();
    const first = await client.send(new ConverseCommand({ modelId: MODEL, messages: WEATHER_ASK, toolConfig: { tools: [WEATHER] } }));
    const call = first.output?.message?.content?.find((b) => b.toolUse)?.toolUse;
    expect(first.stopReason).toBe('tool_use');
    expect(call).toMatchObject({ name: 'get_weather', input: { location: 'Paris' } });
    const events = await collect((await client.send(new ConverseStreamCommand({ modelId: MODEL, messages: WEATHER_ASK, toolConfig: { tools: [WEATHER] } }))).stream);
    expect(events.find((e) => e.contentBlockStart)?.contentBlockStart?.start?.toolUse).toEqual({ toolUseId: call?.toolUseId, name: 'get_weather' });
    expect(events.map((e) => e.contentBlockDelta?.delta?.toolUse?.input ?? '').join('')).toBe('{"location":"Paris"}');
    const second = await client.send(
      new ConverseCommand({
        modelId: MODEL,
        toolConfig: { tools: [WEATHER] },
        messages: [
          ...WEATHER_ASK,
          first.output!.message!,
          { role: 'user', content: [{ toolResult: { toolUseId: call!.toolUseId!, content: [{ text: 'sunny, 21 C' }], status: 'success' } }] },
        ],
      }),
    );
    expect(text(second.output?.message)).toBe('Echo: the tool returned sunny, 21 C.');
    expect(second.stopReason).toBe('end_turn');
  });

  it('Claude thinking via additionalModelRequestFields: reasoningContent with signature, stream and not', async () => {
    const input: ConverseCommandInput = { ...ASK, inferenceConfig: { maxTokens: 2048 }, additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } } };
    const client = bedrock();
    const whole = await client.send(new ConverseCommand(input));
    const reasoning = whole.output?.message?.content?.[0]?.reasoningContent?.reasoningText;
    expect(reasoning?.text).toMatch(/^The user wrote:/);
    expect(reasoning?.signature?.length).toBeGreaterThan(10);
    const events = await collect((await client.send(new ConverseStreamCommand(input))).stream);
    expect(events.map((e) => e.contentBlockDelta?.delta?.reasoningContent?.text ?? '').join('')).toBe(reasoning?.text);
    expect(events.find((e) => e.contentBlockDelta?.delta?.reasoningContent?.signature)?.contentBlockDelta?.delta?.reasoningContent?.signature).toBe(reasoning?.signature);
  });

  it('cache headers become cacheReadInputTokens / cacheWriteInputTokens apart from inputTokens; stop sequence asked back', async () => {
    const plain = await bedrock().send(new ConverseCommand(ASK));
    const cached = await bedrock({ headers: { 'x-sim-cache-read-tokens': '4', 'x-sim-cache-write-tokens': '2' } }).send(new ConverseCommand(ASK));
    expect(cached.usage).toMatchObject({ cacheReadInputTokens: 4, cacheWriteInputTokens: 2, inputTokens: (plain.usage?.inputTokens ?? 0) - 6 });
    const stop = ` ${words(text(plain.output?.message))[2] ?? ''}`;
    const stopped = await bedrock().send(new ConverseCommand({ ...ASK, inferenceConfig: { stopSequences: [stop] }, additionalModelResponseFieldPaths: ['/stop_sequence'] }));
    expect(stopped.stopReason).toBe('stop_sequence');
    expect(stopped.additionalModelResponseFields).toEqual({ stop_sequence: stop });
  });
});

describe('errors map to the SDK exception classes', () => {
  const cases = [
    ['429', ThrottlingException, 429],
    ['503', ServiceUnavailableException, 503],
    ['529', ServiceUnavailableException, 503],
    ['500', InternalServerException, 500],
    ['400', ValidationException, 400],
  ] as const;

  it.each(cases)('x-sim-fault %s -> %o (%i)', async (fault, errorClass, status) => {
    const error = await bedrock({ headers: { 'x-sim-fault': fault } }).send(new ConverseCommand(ASK)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errorClass);
    expect((error as InstanceType<typeof errorClass>).$metadata.httpStatusCode).toBe(status);
  });

  it('401 is AWS-shaped: 403 UnrecognizedClientException; reset is a network error; throttling on a stream too', async () => {
    const denied = (await bedrock({ headers: { 'x-sim-fault': '401' } }).send(new ConverseCommand(ASK)).catch((e: unknown) => e)) as Error & { $metadata: { httpStatusCode: number } };
    expect(denied.name).toBe('UnrecognizedClientException');
    expect(denied.$metadata.httpStatusCode).toBe(403);
    const reset = (await bedrock({ headers: { 'x-sim-fault': 'reset' } }).send(new ConverseCommand(ASK)).catch((e: unknown) => e)) as Error & { $metadata?: { httpStatusCode?: number } };
    expect(reset).toBeInstanceOf(Error);
    expect(reset.$metadata?.httpStatusCode).toBeUndefined();
    await expect(bedrock({ headers: { 'x-sim-fault': '429' } }).send(new ConverseStreamCommand(ASK))).rejects.toBeInstanceOf(ThrottlingException);
  });

  it('midstream-reset: the event stream starts, then breaks', async () => {
    const response = await bedrock({ headers: { 'x-sim-fault': 'midstream-reset' } }).send(new ConverseStreamCommand(ASK));
    const seen: ConverseStreamOutput[] = [];
    const error = await (async () => {
      for await (const event of response.stream ?? []) seen.push(event);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(seen[0]?.messageStart).toBeDefined();
    expect(seen.length).toBeLessThanOrEqual(3);
  });

  it('validation like the service: a conversation must start with a user turn; temperature above 1', async () => {
    const assistantFirst = bedrock().send(new ConverseCommand({ modelId: MODEL, messages: [{ role: 'assistant', content: [{ text: 'hi' }] }] }));
    await expect(assistantFirst).rejects.toThrow(/must start with a user message/);
    await expect(bedrock().send(new ConverseCommand({ ...ASK, inferenceConfig: { temperature: 1.5 } }))).rejects.toBeInstanceOf(ValidationException);
  });
});

describe('SigV4 verification in the simulator', () => {
  it('a wrong secret is InvalidSignatureException, a wrong key id UnrecognizedClientException, no signature MissingAuthenticationToken', async () => {
    const wrongSecret = (await bedrock({ credentials: { ...CREDS, secretAccessKey: 'nope' } }).send(new ConverseCommand(ASK)).catch((e: unknown) => e)) as Error;
    expect(wrongSecret.name).toBe('InvalidSignatureException');
    const wrongKey = (await bedrock({ credentials: { ...CREDS, accessKeyId: 'AKIAOTHER' } }).send(new ConverseCommand(ASK)).catch((e: unknown) => e)) as Error;
    expect(wrongKey.name).toBe('UnrecognizedClientException');
    const unsigned = await fetch(`${sim.url}/br/model/${encodeURIComponent(MODEL)}/converse`, { method: 'POST', body: JSON.stringify(ASK) });
    expect(unsigned.status).toBe(403);
    expect(unsigned.headers.get('x-amzn-errortype')).toMatch(/^MissingAuthenticationTokenException:/);
  });

  it('temporary credentials: the session token must travel as x-amz-security-token', async () => {
    sim.configure('/sts', { sigv4: { ...CREDS, sessionToken: 'session-token-1' } });
    await expect(bedrock({ prefix: '/sts', credentials: { ...CREDS, sessionToken: 'session-token-1' } }).send(new ConverseCommand(ASK))).resolves.toBeDefined();
    const stale = (await bedrock({ prefix: '/sts', credentials: { ...CREDS, sessionToken: 'other' } }).send(new ConverseCommand(ASK)).catch((e: unknown) => e)) as Error;
    expect(stale.name).toBe('UnrecognizedClientException');
  });
});

interface SignRow {
  name: string;
  path: string;
  query: Record<string, string | string[]>;
  search?: string;
  headers: Record<string, string>;
  body: string;
  sessionToken?: string;
}

describe('our sigv4.ts equals @smithy/signature-v4', () => {
  const rows: SignRow[] = [
    { name: 'converse, JSON body', path: `/model/${encodeURIComponent(MODEL)}/converse`, query: {}, headers: { 'content-type': 'application/json' }, body: '{"messages":[]}' },
    {
      name: 'converse-stream, ARN model id, session token',
      path: `/model/${encodeURIComponent('arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-3-5-sonnet-20241022-v2:0')}/converse-stream`,
      query: {},
      headers: { 'content-type': 'application/json', accept: 'application/vnd.amazon.eventstream' },
      body: '{"messages":[{"role":"user","content":[{"text":"héllo"}]}]}',
      sessionToken: 'FwoGZXIvYXdzEBYaDH+session/token==',
    },
    { name: 'sub-delims in the model id', path: `/model/${encodeURIComponent("my.model(v2)*!'x")}/converse`, query: {}, headers: { 'content-type': 'application/json' }, body: '{}' },
    { name: 'query parameters, repeated and with spaces', path: '/foundation-models', query: { b: '2', a: ['1', '0'], sp: 'x y' }, search: '?b=2&a=1&a=0&sp=x%20y', headers: { 'X-Custom': '  a   b  ' }, body: '' },
  ];

  it.each(rows)('$name', async (row) => {
    const host = 'bedrock-runtime.eu-central-1.amazonaws.com';
    const now = new Date('2025-06-07T08:09:10Z');
    const credentials = row.sessionToken ? { ...CREDS, sessionToken: row.sessionToken } : CREDS;
    const smithy = new SignatureV4({ credentials, region: 'eu-central-1', service: 'bedrock', sha256: Sha256 });
    const theirs = await smithy.sign(
      { method: 'POST', protocol: 'https:', hostname: host, path: row.path, query: row.query, headers: { host, ...row.headers }, body: row.body },
      { signingDate: now },
    );
    const ours = signRequest({
      method: 'POST',
      url: `https://${host}${row.path}${row.search ?? ''}`,
      headers: { host, ...row.headers },
      body: row.body,
      credentials,
      region: 'eu-central-1',
      service: 'bedrock',
      now,
    });
    expect(ours.authorization).toBe(theirs.headers.authorization);
    expect(ours['x-amz-content-sha256']).toBe(theirs.headers['x-amz-content-sha256']);
  });
});
