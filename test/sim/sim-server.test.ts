/**
 * The provider-neutral part of the simulator: endpoint prefixes, per-prefix config and stats, the admin
 * API, latency controls, and the CLI. Driven through the OpenAI dialect with the official SDK.
 */
import OpenAI, { InternalServerError, RateLimitError } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseSimArgs } from '../../src/sim/cli.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';

let sim: Simulator;

const MODEL = 'gpt-4o-mini';
const messages = [{ role: 'user' as const, content: 'Hello there' }];

function clientFor(prefix: string, apiKey = 'sk-test'): OpenAI {
  return new OpenAI({ apiKey, baseURL: `${sim.url}${prefix}/v1`, maxRetries: 0 });
}

async function admin(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const init: RequestInit = { method };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await fetch(`${sim.url}/_sim/${path}`, init);
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe('endpoint prefixes, config and stats', () => {
  it('a fault with faultCount hits only the next requests of that prefix', async () => {
    sim.configure('/ep-a', { fault: '500', faultCount: 1 });
    const a = clientFor('/ep-a');
    await expect(a.chat.completions.create({ model: MODEL, messages })).rejects.toBeInstanceOf(InternalServerError);
    await expect(a.chat.completions.create({ model: MODEL, messages })).resolves.toBeDefined();
    await expect(clientFor('').chat.completions.create({ model: 'gpt-4o', messages })).resolves.toBeDefined();

    const stats = sim.stats();
    expect(stats.requests).toBe(3);
    expect(stats.endpoints['/ep-a']).toMatchObject({
      requests: 2,
      byModel: { [MODEL]: 2 },
      faults: { '500': 1 },
      lastPath: '/ep-a/v1/chat/completions',
      lastBody: { model: MODEL, messages },
    });
    expect(stats.endpoints['/ep-a']?.lastHeaders.authorization).toBe('Bearer sk-test');
    expect(stats.endpoints['/']?.byModel).toEqual({ 'gpt-4o': 1 });
    expect(stats.endpoints['/ep-b']).toBeUndefined();
  });

  it('a fault without a count persists until cleared; the x-sim-fault header overrides it', async () => {
    sim.configure('ep-b/', { fault: '429' });
    const b = clientFor('/ep-b');
    for (let i = 0; i < 2; i += 1) {
      await expect(b.chat.completions.create({ model: MODEL, messages })).rejects.toBeInstanceOf(RateLimitError);
    }
    await expect(
      b.chat.completions.create({ model: MODEL, messages }, { headers: { 'x-sim-fault': '503' } }),
    ).rejects.toMatchObject({ status: 503 });
    sim.configure('/ep-b', { fault: null });
    await expect(b.chat.completions.create({ model: MODEL, messages })).resolves.toBeDefined();
    expect(sim.stats().endpoints['/ep-b']?.faults).toEqual({ '429': 2, '503': 1 });
  });

  it('reset() forgets stats and config', async () => {
    sim.configure('/', { fault: '500' });
    sim.reset();
    await expect(clientFor('').chat.completions.create({ model: MODEL, messages })).resolves.toBeDefined();
    expect(sim.stats().requests).toBe(1);
  });

  it('unknown routes are 404 and not counted', async () => {
    const res = await fetch(`${sim.url}/v1/nope`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('Invalid URL (POST /v1/nope)');
    expect(sim.stats().requests).toBe(0);
  });

  it('a malformed x-sim-fault is a simulator 400, not a silent success', async () => {
    const error = await clientFor('')
      .chat.completions.create({ model: MODEL, messages }, { headers: { 'x-sim-fault': 'teapot' } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, type: 'sim_error' });
  });
});

describe('admin HTTP API', () => {
  it('config, stats and reset over HTTP', async () => {
    const configured = await admin('POST', 'config', { prefix: '/ep-c', fault: 429, faultCount: 2, retryAfterS: 3 });
    expect(configured).toMatchObject({ status: 200, body: { prefix: '/ep-c', config: { fault: '429', faultCount: 2 } } });
    const error = await clientFor('/ep-c').chat.completions.create({ model: MODEL, messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).headers?.get('retry-after')).toBe('3');
    expect(await admin('GET', 'config?prefix=ep-c')).toMatchObject({ body: { config: { faultCount: 1 } } });

    const stats = await admin('GET', 'stats');
    expect(stats.body).toMatchObject({ requests: 1, endpoints: { '/ep-c': { requests: 1, faults: { '429': 1 } } } });
    expect(await admin('POST', 'reset')).toEqual({ status: 200, body: { ok: true } });
    expect((await admin('GET', 'stats')).body).toEqual({ requests: 0, endpoints: {} });
    expect(await admin('GET', 'health')).toEqual({ status: 200, body: { ok: true } });
  });

  it('refuses a bad config with a reason', async () => {
    const bad = await admin('POST', 'config', { prefix: '/x', fault: 'explode' });
    expect(bad.status).toBe(400);
    expect((await admin('POST', 'config', { prefix: '/x', firstByte: 5 })).status).toBe(400);
  });
});

describe('latency', () => {
  it('slow-first-byte waits the configured first-byte delay', async () => {
    sim.configure('/slow', { fault: 'slow-first-byte', firstByteMs: 200 });
    const started = performance.now();
    await clientFor('/slow').chat.completions.create({ model: MODEL, messages });
    expect(performance.now() - started).toBeGreaterThanOrEqual(195);
  });

  it('x-sim-first-byte-ms and x-sim-ms-per-token pace a request; the stream spreads tokens over time', async () => {
    const headers = { 'x-sim-first-byte-ms': '50', 'x-sim-ms-per-token': '20', 'x-sim-output-tokens': '5' };
    const client = clientFor('');
    let started = performance.now();
    await client.chat.completions.create({ model: MODEL, messages }, { headers });
    expect(performance.now() - started).toBeGreaterThanOrEqual(50 + 5 * 20 - 5);

    started = performance.now();
    const stream = await client.chat.completions.create({ model: MODEL, messages, stream: true }, { headers });
    const arrivals: number[] = [];
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) arrivals.push(performance.now() - started);
    expect(arrivals).toHaveLength(5);
    expect((arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(4 * 20 - 5);
  });

  it('close() ends hanging requests instead of waiting for them', async () => {
    const own = await startSimulator({ port: 0, defaults: { fault: 'hang' } });
    const pending = fetch(`${own.url}/v1/chat/completions`, { method: 'POST', body: '{}' }).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await own.close();
    expect(await pending).toBeInstanceOf(Error);
  });
});

describe('cli', () => {
  it('parses --port and --host in both forms', () => {
    expect(parseSimArgs(['--port', '9100', '--host=0.0.0.0'])).toEqual({ port: 9100, host: '0.0.0.0', help: false });
    expect(parseSimArgs([])).toMatchObject({ port: 9000, host: '127.0.0.1' });
    expect(() => parseSimArgs(['--port', 'x'])).toThrow(/--port/);
    expect(() => parseSimArgs(['--verbose', '1'])).toThrow(/unknown option/);
  });
});
