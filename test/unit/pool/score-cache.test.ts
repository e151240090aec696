import { describe, expect, it } from 'vitest';
import { ScoreCache } from '../../../src/pool/score-cache.js';

function fakeBatcher(opts: { fail?: boolean } = {}) {
  const calls: { texts: string[]; tenant: string }[] = [];
  return {
    calls,
    score: (texts: string[], tenant: string) => {
      calls.push({ texts, tenant });
      return opts.fail ? Promise.reject(new Error('boom')) : Promise.resolve(texts.map((t) => ({ len: t.length })));
    },
  };
}

describe('ScoreCache', () => {
  it('scores a text once per organization; later requests send only their new texts', async () => {
    const inner = fakeBatcher();
    const c = new ScoreCache(inner);
    expect(await c.score(['system', 'hi'], 'org-a')).toEqual([{ len: 6 }, { len: 2 }]);
    expect(await c.score(['system', 'hi', 'longer turn'], 'org-a')).toEqual([{ len: 6 }, { len: 2 }, { len: 11 }]);
    expect(await c.score(['system', 'hi'], 'org-a')).toEqual([{ len: 6 }, { len: 2 }]);
    expect(inner.calls).toEqual([
      { texts: ['system', 'hi'], tenant: 'org-a' },
      { texts: ['longer turn'], tenant: 'org-a' },
    ]);
    expect([c.hits, c.misses]).toEqual([4, 3]);
  });

  it("never answers one organization from another organization's scores", async () => {
    const inner = fakeBatcher();
    const c = new ScoreCache(inner);
    await c.score(['same words'], 'org-a');
    await c.score(['same words'], 'org-b');
    expect(inner.calls.map((x) => x.tenant)).toEqual(['org-a', 'org-b']);
  });

  it('a failed scoring is not remembered (the caller answers 503 unavailable; the next request retries)', async () => {
    const failing = fakeBatcher({ fail: true });
    const c = new ScoreCache(failing);
    await expect(c.score(['x'], 'org-a')).rejects.toThrow('boom');
    await expect(c.score(['x'], 'org-a')).rejects.toThrow('boom');
    expect(failing.calls).toHaveLength(2);
    expect(c.size).toBe(0);
  });

  it('is bounded in entries and characters (least recently used out) and never keeps an over-long text', async () => {
    const inner = fakeBatcher();
    const c = new ScoreCache(inner, { maxEntries: 2, maxChars: 1_000, maxTextChars: 10 });
    await c.score(['a', 'b'], 'o');
    await c.score(['a'], 'o'); // a is now the most recent
    await c.score(['c'], 'o'); // evicts b
    expect(c.size).toBe(2);
    inner.calls.length = 0;
    await c.score(['a', 'b', 'c'], 'o');
    expect(inner.calls).toEqual([{ texts: ['b'], tenant: 'o' }]);
    await c.score(['x'.repeat(11)], 'o');
    await c.score(['x'.repeat(11)], 'o');
    expect(inner.calls.slice(1).map((x) => x.texts[0]!.length)).toEqual([11, 11]);
    const small = new ScoreCache(fakeBatcher(), { maxChars: 20 });
    await small.score(['0123456789', 'abcdefghij'], 'o'); // each key is 12 characters with its tenant
    expect(small.size).toBe(1);
  });

  it('shares frozen score objects', async () => {
    const c = new ScoreCache(fakeBatcher());
    const [first] = await c.score(['t'], 'o');
    const [again] = await c.score(['t'], 'o');
    expect(again).toBe(first);
    expect(Object.isFrozen(again)).toBe(true);
  });
});

describe('ScoreCache with an inline scorer', () => {
  /** Scores texts of at most `max` characters in all (as InlineScorer does), recording what it scored. */
  function fakeInline(max: number) {
    const scored: string[][] = [];
    return {
      scored,
      scoreIfShort: (texts: readonly string[]) => {
        if (texts.reduce((n, t) => n + t.length, 0) > max) return null;
        scored.push([...texts]);
        return texts.map((t) => ({ len: t.length, inline: 1 }));
      },
    };
  }

  /** A cache over a recording batcher, with an inline scorer of at most `max` characters. */
  function withInline(max: number) {
    const inner = fakeBatcher();
    const c = new ScoreCache(inner);
    const inline = fakeInline(max);
    c.inline = inline;
    return { inner, c, inline };
  }

  it('scores short missing texts inline (no pool call), remembers them, and sends longer ones to the pool', async () => {
    const { inner, c, inline } = withInline(10);
    let dispatched = 0;
    expect(await c.score(['sys', 'hi'], 'org-a', { onDispatch: () => dispatched++ })).toEqual([
      { len: 3, inline: 1 },
      { len: 2, inline: 1 },
    ]);
    expect(dispatched).toBe(1);
    expect(inner.calls).toEqual([]);
    // Known texts come from the cache; only the new, long one goes to the pool (over the inline bound).
    expect(await c.score(['sys', 'a much longer turn'], 'org-a')).toEqual([{ len: 3, inline: 1 }, { len: 18 }]);
    expect(inner.calls).toEqual([{ texts: ['a much longer turn'], tenant: 'org-a' }]);
    expect(inline.scored).toEqual([['sys', 'hi']]);
    expect([c.hits, c.misses, c.inlined]).toEqual([1, 3, 2]);
  });

  it('bounds the characters of a request, not of each text: several short texts over the bound go to the pool together', async () => {
    const { inner, c } = withInline(10);
    await c.score(['abcdef', 'ghijkl'], 'org-a');
    expect(inner.calls).toEqual([{ texts: ['abcdef', 'ghijkl'], tenant: 'org-a' }]);
    expect(c.inlined).toBe(0);
  });

  it('scores texts nobody waits on (linger: monitor mode) after the turn, not while the request is on its way', async () => {
    const { inner, c, inline } = withInline(10);
    let dispatched = 0;
    const a = c.score(['one'], 'org-a', { linger: true, onDispatch: () => dispatched++ });
    const b = c.score(['two', 'a much longer turn'], 'org-a', { linger: true });
    await Promise.resolve();
    expect(inline.scored).toEqual([]);
    expect(inner.calls).toEqual([]);
    expect(dispatched).toBe(0);
    expect(await a).toEqual([{ len: 3, inline: 1 }]);
    expect(await b).toEqual([{ len: 3 }, { len: 18 }]);
    expect(inline.scored).toEqual([['one']]);
    expect(inner.calls).toEqual([{ texts: ['two', 'a much longer turn'], tenant: 'org-a' }]);
    expect(dispatched).toBe(1);
    // A request that waits (enforce) is scored at once.
    void c.score(['three'], 'org-a');
    expect(inline.scored).toEqual([['one'], ['three']]);
  });

  it('a deferred scoring that throws fails its own request only', async () => {
    const c = new ScoreCache(fakeBatcher());
    c.inline = {
      scoreIfShort: (texts: readonly string[]) => {
        if (texts[0] === 'bad') throw new Error('model broke');
        return texts.map(() => ({ ok: 1 }));
      },
    };
    const bad = c.score(['bad'], 'o', { linger: true });
    const good = c.score(['good'], 'o', { linger: true });
    await expect(bad).rejects.toThrow('model broke');
    expect(await good).toEqual([{ ok: 1 }]);
  });
});

describe('ScoreCache with a sliced scorer', () => {
  it("hands longer texts to the sliced scorer with their organization, and what it declines to the pool's fair queue", async () => {
    const inner = fakeBatcher();
    const c = new ScoreCache(inner);
    const asked: { texts: readonly string[]; tenant: string | undefined }[] = [];
    c.sliced = {
      scored: 0,
      backlog: 0,
      score: (texts: readonly string[], tenant?: string) => {
        asked.push({ texts, tenant });
        return tenant === 'org-full' ? null : Promise.resolve(texts.map((t) => ({ len: t.length, sliced: 1 })));
      },
    };
    expect(await c.score(['a pasted page'], 'org-a')).toEqual([{ len: 13, sliced: 1 }]);
    expect(await c.score(['another page'], 'org-full')).toEqual([{ len: 12 }]);
    expect(asked.map((a) => a.tenant)).toEqual(['org-a', 'org-full']);
    expect(inner.calls).toEqual([{ texts: ['another page'], tenant: 'org-full' }]);
  });
});
