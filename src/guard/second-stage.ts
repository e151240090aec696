import type { Agent } from 'undici';
import type { GuardCategory, GuardSecondStageConfig } from '../config/schema.js';
import { adapterFor } from '../providers/registry.js';
import { CallAbort } from '../upstream/call-abort.js';
import { sendUpstream } from '../upstream/client.js';
import { GUARD_LABELS } from './labels.js';

/** Our moderation categories, each with the OpenAI moderation categories that mean it. */
const MODERATION_NAMES: Readonly<Partial<Record<GuardCategory, readonly string[]>>> = {
  hate: ['hate'],
  'hate/threatening': ['hate/threatening'],
  'self-harm': ['self-harm', 'self-harm/intent', 'self-harm/instructions'],
  sexual: ['sexual'],
  'sexual/minors': ['sexual/minors'],
  violence: ['violence'],
  'violence/graphic': ['violence/graphic'],
};

export type SecondOpinion =
  | { ok: true; flagged: ReadonlySet<GuardCategory> }
  | { ok: false; reason: 'timeout' | 'error'; detail: string };

/**
 * The optional second guardrail stage: a moderation model behind an OpenAI-format `/moderations` endpoint,
 * asked only when a moderation category's first-stage score is in the uncertain band. It answers within its
 * deadline or not at all: `ask` never throws, and a late or failed answer leaves the first stage's verdict.
 */
export class SecondStage {
  readonly #url: string;
  readonly #headers: Record<string, string>;

  constructor(
    readonly config: GuardSecondStageConfig,
    private readonly deps: { agent: Agent; env: NodeJS.ProcessEnv },
  ) {
    const adapter = adapterFor(config.endpoint.provider);
    if (!adapter?.capabilities.chatPassthrough) {
      throw new Error(`guardrails.secondStage: provider ${config.endpoint.provider} has no OpenAI-format moderation endpoint`);
    }
    // The provider's own authentication (and static headers) for this endpoint; only the path differs.
    this.#headers = adapter.chatRequest(config.endpoint, deps.env).headers;
    this.#url = `${config.endpoint.baseUrl.replace(/\/+$/, '')}/moderations`;
  }

  /** The moderation categories whose score is in [from x threshold, to x threshold): never prompt injection. */
  uncertain(scores: Readonly<Record<GuardCategory, number>>, thresholds: Readonly<Record<GuardCategory, number>>): GuardCategory[] {
    const { from, to } = this.config.band;
    return GUARD_LABELS.filter((c) => MODERATION_NAMES[c] !== undefined && scores[c] >= from * thresholds[c] && scores[c] < to * thresholds[c]);
  }

  /** Asks about `texts` within `budgetMs` (capped at the stage's own timeout). */
  async ask(texts: readonly string[], budgetMs: number): Promise<SecondOpinion> {
    const ms = Math.max(1, Math.min(budgetMs, this.config.timeoutMs));
    const ac = new CallAbort();
    const deadline = setTimeout(() => ac.abort(new Error('guardrail second stage deadline')), ms);
    try {
      const sent = await sendUpstream(this.deps.agent, {
        url: this.#url,
        headers: this.#headers,
        body: JSON.stringify({ model: this.config.endpoint.upstreamModel, input: texts }),
        signal: ac,
        timeouts: { connectMs: ms, firstByteMs: ms, idleMs: ms, totalMs: ms },
      });
      if (!sent.ok) return { ok: false, reason: sent.failure.kind === 'connect' ? 'error' : 'timeout', detail: sent.failure.message };
      const body = await sent.response.body.readAll(1024 * 1024);
      if (sent.response.statusCode !== 200) return { ok: false, reason: 'error', detail: `moderation endpoint answered ${sent.response.statusCode}` };
      return parseModeration(body, texts.length);
    } catch (e) {
      return { ok: false, reason: ac.aborted ? 'timeout' : 'error', detail: (e as Error).message };
    } finally {
      clearTimeout(deadline);
    }
  }
}

/** The categories any result flags, from an OpenAI moderation object (`results[].categories`). */
export function parseModeration(body: Buffer, inputs: number): SecondOpinion {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return { ok: false, reason: 'error', detail: 'moderation answer is not JSON' };
  }
  const results = (parsed as { results?: unknown }).results;
  if (!Array.isArray(results) || results.length !== inputs) {
    return { ok: false, reason: 'error', detail: 'moderation answer has no result per input' };
  }
  const flagged = new Set<GuardCategory>();
  for (const r of results as unknown[]) {
    const categories = (r as { categories?: unknown }).categories;
    if (typeof categories !== 'object' || categories === null) return { ok: false, reason: 'error', detail: 'moderation result without categories' };
    const map = categories as Record<string, unknown>;
    for (const [ours, theirs] of Object.entries(MODERATION_NAMES) as [GuardCategory, readonly string[]][]) {
      if (theirs.some((name) => map[name] === true)) flagged.add(ours);
    }
  }
  return { ok: true, flagged };
}
