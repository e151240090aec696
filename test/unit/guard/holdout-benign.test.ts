import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { GuardrailConfig } from '../../../src/config/schema.js';
import { GUARD_LABELS, type GuardLabel } from '../../../src/guard/labels.js';
import { loadModel, scoreText, type GuardModel } from '../../../src/guard/model.js';
import { defaultModelPath, findProjectRoot } from '../../../src/guard/paths.js';
import { categoryScores, startInspection } from '../../../src/pipeline/inspect.js';
import { BENIGN_REQUESTS, type HoldoutRequest } from '../../fixtures/guard-holdout/benign-requests.js';

// The real model, built by `make build` (make guard-model); SVC_GUARD_MODEL points at another one (a retrained
// candidate). Missing = a failing test, not a skip.
const modelPath = process.env['SVC_GUARD_MODEL'] ?? defaultModelPath(findProjectRoot(import.meta.url));

/** The gateway's defaults (src/config/load.ts): enforce, the model file's thresholds, 32 768 characters scored. */
const GUARDRAILS: GuardrailConfig = { mode: 'enforce', thresholds: {}, timeoutMs: 1000, maxChars: 32_768, secondStage: null };

/** The refusal budget of the guardrails: at most 0.5 % of benign requests refused. */
const TARGET = 0.005;

interface Refusal {
  kind: string;
  flagged: GuardLabel[];
  /** Per flagged category: its score, and the role and start of the text that scored highest for it. */
  why: string[];
}

/**
 * Judges a request as the gateway does (src/formats/chat-completions/validate.ts, src/pipeline/inspect.ts): one
 * text per message, user and tool turns untrusted (the only ones judged for prompt injection), the maxChars
 * budget applied by startInspection, per category the highest score over the texts judged for it.
 */
async function judge(model: GuardModel, req: HoldoutRequest): Promise<Refusal | null> {
  const texts = req.messages.map((m) => m.content);
  const untrusted = req.messages.map((m) => m.role === 'user' || m.role === 'tool');
  const scorer = { score: (ts: string[]) => Promise.resolve(ts.map((t) => scoreText(model, t) as Record<string, number>)) };
  const pending = startInspection({ guardrails: GUARDRAILS, scorer }, texts, 'holdout', untrusted);
  if (pending.scoring === null) return null;
  const results = await pending.scoring;
  const scores = categoryScores(results, pending.untrusted);
  const flagged = GUARD_LABELS.filter((l) => scores[l] >= model.thresholds[l]);
  if (flagged.length === 0) return null;
  // pending.scored drops empty texts; every fixture text is non-empty, so index i is messages[i].
  const why = flagged.map((l) => {
    const i = results.findIndex((r, j) => r[l] === scores[l] && (l !== 'prompt_injection' || pending.untrusted[j] !== false));
    const m = req.messages[i];
    const where = m ? `${m.role}#${i}: ${JSON.stringify(m.content.slice(0, 100))}` : '?';
    return `${l}=${scores[l].toFixed(3)} (threshold ${model.thresholds[l].toFixed(3)}) in ${where}`;
  });
  return { kind: req.kind, flagged, why };
}

describe('the trained guardrail model on the held-out benign requests (test/fixtures/guard-holdout)', () => {
  it('is a set of 400+ distinct requests with known roles', () => {
    expect(BENIGN_REQUESTS.length).toBeGreaterThanOrEqual(400);
    const keys = BENIGN_REQUESTS.map((r) => JSON.stringify(r.messages));
    const dupes = keys.filter((k, i) => keys.indexOf(k) !== i);
    expect(dupes, 'duplicate requests').toEqual([]);
    for (const r of BENIGN_REQUESTS) {
      expect(r.kind).toMatch(/^[a-z0-9-]+(\/[a-z0-9-]+)*$/);
      expect(r.messages.length).toBeGreaterThan(0);
      expect(r.messages.every((m) => m.content.length > 0)).toBe(true);
    }
  });

  it('has a model to test (run `make build`)', () => {
    expect(existsSync(modelPath), `no model at ${modelPath}`).toBe(true);
  });

  it(`refuses at most ${TARGET * 100} % of them, as the gateway judges a request`, async () => {
    const model = loadModel(modelPath);
    const refused: Refusal[] = [];
    for (const req of BENIGN_REQUESTS) {
      const r = await judge(model, req);
      if (r) refused.push(r);
    }
    const perCategory: Partial<Record<GuardLabel, number>> = {};
    for (const r of refused) for (const l of r.flagged) perCategory[l] = (perCategory[l] ?? 0) + 1;
    const rate = refused.length / BENIGN_REQUESTS.length;
    const lines = [
      `holdout benign: ${refused.length} of ${BENIGN_REQUESTS.length} refused (${(rate * 100).toFixed(2)} %, target <= ${TARGET * 100} %)`,
      `per category: ${JSON.stringify(perCategory)}`,
      ...refused.map((r) => `  [${r.kind}] ${r.why.join('; ')}`),
    ];
    console.log(lines.join('\n'));
    expect(rate, lines.join('\n')).toBeLessThanOrEqual(TARGET);
  });
});
