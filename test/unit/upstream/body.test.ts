import { describe, expect, it } from 'vitest';
import { HIGH_WATER, UpstreamBody } from '../../../src/upstream/body.js';

function body() {
  const calls = { aborted: [] as Error[], resumed: 0 };
  const b = new UpstreamBody(
    (reason) => calls.aborted.push(reason),
    () => calls.resumed++,
  );
  return { b, calls };
}

describe('UpstreamBody', () => {
  it('hands a streaming reader everything buffered as one chunk, then null at the end', async () => {
    const { b } = body();
    b.push(Buffer.from('data: 1\n\n'));
    b.push(Buffer.from('data: 2\n\n'));
    expect((await b.read())?.toString()).toBe('data: 1\n\ndata: 2\n\n');
    const next = b.read();
    b.push(Buffer.from('data: 3\n\n'));
    expect((await next)?.toString()).toBe('data: 3\n\n');
    b.end();
    expect(await b.read()).toBeNull();
    expect(await b.read()).toBeNull();
  });

  it('pauses the socket above the high-water mark and resumes it once the reader took the buffer', async () => {
    const { b, calls } = body();
    expect(b.push(Buffer.alloc(HIGH_WATER))).toBe(true);
    expect(b.push(Buffer.alloc(1))).toBe(false); // undici pauses the socket
    expect(calls.resumed).toBe(0);
    expect((await b.read())?.length).toBe(HIGH_WATER + 1);
    expect(calls.resumed).toBe(1);
    expect(b.push(Buffer.alloc(10))).toBe(true);
  });

  it('readAll collects the whole body without pausing, and resumes a socket a reader had paused', async () => {
    const { b, calls } = body();
    b.push(Buffer.alloc(HIGH_WATER + 1));
    const all = b.readAll();
    expect(calls.resumed).toBe(1);
    expect(b.push(Buffer.alloc(HIGH_WATER * 2))).toBe(true);
    b.end();
    expect((await all).length).toBe(HIGH_WATER * 3 + 1);
  });

  it('readAll over its cap destroys the body (the call is aborted) and rejects', async () => {
    const { b, calls } = body();
    const all = b.readAll(10);
    b.push(Buffer.alloc(11));
    await expect(all).rejects.toThrow('exceeds cap');
    expect(calls.aborted.map((e) => e.message)).toEqual(['upstream body exceeds cap']);
  });

  it('an upstream failure reaches the reader; a destroyed body rejects a reader and aborts the call once', async () => {
    const failed = body();
    const pending = failed.b.read();
    failed.b.fail(new Error('socket hang up'));
    await expect(pending).rejects.toThrow('socket hang up');
    expect(failed.calls.aborted).toEqual([]);

    const { b, calls } = body();
    const all = b.readAll();
    b.destroy(new Error('upstream idle for more than 5 ms'));
    b.destroy();
    await expect(all).rejects.toThrow('idle for more than');
    expect(calls.aborted.length).toBe(1);
    const plain = body();
    plain.b.destroy();
    await expect(plain.b.read()).rejects.toThrow('closed before its end');
  });

  it('runs its close callback once, when it ends, fails or is destroyed, and at once when already closed', () => {
    for (const finish of [(b: UpstreamBody) => b.end(), (b: UpstreamBody) => b.fail(new Error('x')), (b: UpstreamBody) => b.destroy()]) {
      const { b } = body();
      let closed = 0;
      b.onClose(() => closed++);
      finish(b);
      finish(b);
      expect(closed).toBe(1);
      b.onClose(() => closed++);
      expect(closed).toBe(2);
    }
  });
});
