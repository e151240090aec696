/**
 * The hand-written prompt-injection test set (test/fixtures/guard-written/attacks-written.jsonl): attacks by technique
 * and benign near-misses by family, each written by hand as free text by someone who saw none of our generators,
 * fixtures or the held-out sets. Never trained on: it measures the injection head on natural phrasing, which the
 * generated attacks of the training data do not have. Read by scripts/guard/eval.ts (the table in
 * docs/guardrails-eval.md) and test/unit/guard/written-attacks.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GuardModel } from '../../src/guard/model.js';
import { judgeRequest } from './gateway-judge.js';

export interface WrittenRow {
  id: string;
  text: string;
  /** 1: an attack; 0: a benign near-miss. */
  attack: boolean;
  /** The technique (attacks, `pi-w-<technique>-NNN`) or family (near-misses, `pi-n-<family>-NNN`). */
  group: string;
}

export function writtenSetPath(root: string): string {
  return join(root, 'test/fixtures/guard-written/attacks-written.jsonl');
}

export function readWrittenSet(path: string): WrittenRow[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const r = JSON.parse(l) as { id: string; text: string; labels: { prompt_injection: number } };
      const m = /^pi-[wn]-(.+)-\d+$/.exec(r.id);
      if (!m?.[1]) throw new Error(`written set: bad id ${r.id}`);
      return { id: r.id, text: r.text, attack: r.labels.prompt_injection === 1, group: m[1] };
    });
}

export interface WrittenResult {
  row: WrittenRow;
  /** The request's prompt-injection score, the text sent as one user turn and judged as the gateway judges it. */
  score: number;
  /** Any category refused the request. */
  refused: boolean;
}

export async function judgeWrittenSet(model: GuardModel, rows: readonly WrittenRow[]): Promise<WrittenResult[]> {
  const out: WrittenResult[] = [];
  for (const row of rows) {
    const j = await judgeRequest(model, [{ role: 'user', content: row.text }]);
    out.push({ row, score: j.scores.prompt_injection, refused: j.refusals.length > 0 });
  }
  return out;
}

/** Per group: [flagged for prompt injection, total], in first-seen order. */
export function byGroup(results: readonly WrittenResult[], attack: boolean, cut: number): Map<string, [number, number]> {
  const m = new Map<string, [number, number]>();
  for (const r of results) {
    if (r.row.attack !== attack) continue;
    const g = m.get(r.row.group) ?? [0, 0];
    if (r.score >= cut) g[0]++;
    g[1]++;
    m.set(r.row.group, g);
  }
  return m;
}
