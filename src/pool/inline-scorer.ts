import type { GuardModel } from '../guard/model.js';
import { scoreText } from '../guard/model.js';

type Scores = Record<string, number>;

/**
 * Default of `guardrails.inlineMaxChars`: a request whose unscored texts add up to at most this many characters is
 * scored on the event loop instead of in the worker pool.
 *
 * Why: handing texts to a worker costs more than scoring short ones. Scoring takes ~5 us for an 84-character prompt,
 * ~13 us for 200 characters and ~30 us for 800 (p50, bench/micro/guard-score.ts). One pool task costs 50-80 us of
 * the event loop's CPU and 75-130 us over both threads (the structured clone, the message port, the futex wake of the
 * worker and the reply; bench/results/cpu.md, session 16), and a waiting request also waits for the worker to be
 * scheduled. Measured with callgrind at 64 connections, a new prompt per request: gateway instructions per request
 * without V8's compilers 0.727 -> 0.651 M with guardrails enforcing (-10.5%), 0.729 -> 0.681 M in monitor mode
 * (-6.6%); the kernel time of the wake-ups saved comes on top. Up to this bound a request holds the loop for less
 * than one hand-off would have cost it; longer texts (a pasted document, a long conversation) still go to the pool,
 * so the event loop never scores a 2,000-token prompt (~0.4 ms).
 */
export const DEFAULT_INLINE_MAX_CHARS = 1024;

/**
 * Guardrail scoring of short texts on the event loop, with the model the gateway loaded at start: its tables are
 * shared memory (src/guard/shared-model.ts), so the scores are those the worker would give, from the same bytes.
 */
export class InlineScorer {
  constructor(
    private readonly model: GuardModel,
    /** Most characters (summed over the texts) scored here; more go to the pool. */
    readonly maxChars: number,
  ) {}

  /** Scores of `texts` when they add up to at most maxChars characters, else null (the caller uses the pool). */
  scoreIfShort(texts: readonly string[]): Scores[] | null {
    let chars = 0;
    for (const t of texts) chars += t.length;
    if (chars > this.maxChars) return null;
    const out: Scores[] = new Array<Scores>(texts.length);
    for (let i = 0; i < texts.length; i++) out[i] = scoreText(this.model, texts[i]!);
    return out;
  }
}
