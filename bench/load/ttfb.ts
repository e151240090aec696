import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';

export interface Sample {
  firstByteMs: number[];
  totalMs: number[];
  errors: number;
}

/** Sequential requests (one at a time, keep-alive): time to the first body byte and to the end. */
export async function sample(url: string, headers: Record<string, string>, body: string, n: number, warmup: number): Promise<Sample> {
  const agent = new Agent({ connections: 1, keepAliveTimeout: 60_000 });
  const out: Sample = { firstByteMs: [], totalMs: [], errors: 0 };
  for (let i = 0; i < n + warmup; i++) {
    const t0 = performance.now();
    let first = 0;
    try {
      const res = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, dispatcher: agent });
      for await (const chunk of res.body) {
        if (first === 0 && (chunk as Buffer).length > 0) first = performance.now();
      }
      if (res.statusCode !== 200) out.errors++;
    } catch {
      out.errors++;
    }
    const end = performance.now();
    if (i >= warmup) {
      out.firstByteMs.push((first || end) - t0);
      out.totalMs.push(end - t0);
    }
  }
  await agent.close();
  return out;
}

export function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
}
