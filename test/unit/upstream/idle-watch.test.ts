import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Dispatcher } from 'undici';
import { idleWatch } from '../../../src/upstream/idle-watch.js';

function fakeBody(): { body: Dispatcher.ResponseData['body']; destroyed: () => Error | null } {
  let err: Error | null = null;
  const body = { destroy: (e: Error) => void (err = e) } as unknown as Dispatcher.ResponseData['body'];
  return { body, destroyed: () => err };
}

describe('idleWatch (the exact idle deadline between upstream chunks)', () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => void vi.useRealTimers());

  it('chunks closer together than the deadline keep the body alive however long the stream lasts', () => {
    const { body, destroyed } = fakeBody();
    const w = idleWatch(body, 100);
    for (let i = 0; i < 50; i++) {
      vi.advanceTimersByTime(60);
      w.touch();
    }
    expect(destroyed()).toBeNull();
    w.stop();
    vi.advanceTimersByTime(1000);
    expect(destroyed()).toBeNull();
  });

  it('a gap longer than the deadline destroys the body, measured from the last chunk', () => {
    const { body, destroyed } = fakeBody();
    const w = idleWatch(body, 100);
    vi.advanceTimersByTime(90);
    w.touch();
    vi.advanceTimersByTime(95); // 185 ms since start, 95 since the chunk: not yet
    expect(destroyed()).toBeNull();
    vi.advanceTimersByTime(10);
    expect(destroyed()?.message).toBe('upstream idle for more than 100 ms');
    w.stop();
  });

  it('waiting on the client is not idleness: the deadline runs again from the end of the wait', async () => {
    const { body, destroyed } = fakeBody();
    const w = idleWatch(body, 100);
    let release!: () => void;
    const waiting = w.suspend(new Promise<void>((r) => (release = r)));
    vi.advanceTimersByTime(500);
    expect(destroyed()).toBeNull();
    release();
    await waiting;
    vi.advanceTimersByTime(90);
    expect(destroyed()).toBeNull();
    vi.advanceTimersByTime(20);
    expect(destroyed()).not.toBeNull();
    w.stop();
  });
});
