/**
 * The second hand-written benign request set (test/fixtures/guard-fresh2: production-like chat requests written for
 * this project, nothing read from ../shared/evals) as training rows: every message of a request is one row, the way
 * the gateway scores it, and a request's messages share a split group. The set was written to measure false positives
 * and refused 21 of its 416 requests (policy and safeguarding language, safety qualifiers, sex education); it is
 * trained on now, and the independent third set (test/fixtures/guard-fresh3, never trained on) measures instead.
 *
 * Labels: 0 for the seven moderation heads (every request is benign), unknown for prompt injection: some of these
 * requests quote attack phrases to defend against them (a filter's regex list), and training quoted attack phrases
 * as benign let a real hidden injection through before (context-negatives.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GUARD_LABELS } from '../../src/guard/labels.js';
import type { LabelValue } from '../../src/guard/train.js';
import type { SourcedExample } from './data.js';
import type { JudgedMessage } from './gateway-judge.js';

interface FixtureRequest {
  id: string;
  messages: JudgedMessage[];
}

/** Reads every *.jsonl of `dir` in name order: one request per line. */
export function readRequestSet(dir: string): FixtureRequest[] {
  const out: FixtureRequest[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.jsonl')).sort()) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      if (line.trim() !== '') out.push(JSON.parse(line) as FixtureRequest);
    }
  }
  return out;
}

/** Rows of every request in `dir` (trainingPaths().requests). */
export function benignRequestRows(dir: string): SourcedExample[] {
  const y = (): LabelValue[] => GUARD_LABELS.map((l): LabelValue => (l === 'prompt_injection' ? null : 0));
  const rows: SourcedExample[] = [];
  for (const r of readRequestSet(dir)) {
    for (const m of r.messages) {
      const text = m.content.trim();
      if (text !== '') rows.push({ text, y: y(), w: new Array<number>(GUARD_LABELS.length).fill(1), source: 'benign-requests', group: `fresh2:${r.id}` });
    }
  }
  return rows;
}
