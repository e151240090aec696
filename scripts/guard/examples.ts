/** Every training row of the guard model, in training order: the shared data files and our generated corpora. */
import { DEFAULT_WINDOW_CONFIG, scoringSegments } from '../../src/guard/model.js';
import { attackCorpus, benignCorpus, moderationCorpus } from './corpus.js';
import { contextNegatives } from './context-negatives.js';
import { policyNegatives } from './policy-negatives.js';
import { idiomNegatives } from './idiom-negatives.js';
import { benignRequestRows } from './request-rows.js';
import { DEFAULT_DATA_OPTIONS, extraExamples, isBenignCorpus, readJsonl, unifiedExamples, type SourcedExample } from './data.js';
import { hateFunctionalRows } from './hate-functional.js';
import { moderationHardNegatives, moderationPositives, profanityNegatives } from './moderation-text.js';
import { violenceRows } from './violence-text.js';

export function trainingExamples(paths: { data: string; extra: string; requests: string }): SourcedExample[] {
  return windowedNegatives([
    ...unifiedExamples(readJsonl(paths.data), DEFAULT_DATA_OPTIONS),
    ...extraExamples(readJsonl(paths.extra)),
    ...benignCorpus(),
    ...attackCorpus(),
    ...moderationCorpus(),
    ...moderationPositives(),
    ...moderationHardNegatives(),
    ...profanityNegatives(),
    ...hateFunctionalRows(),
    ...violenceRows(),
    ...contextNegatives(),
    ...policyNegatives(),
    ...idiomNegatives(),
    ...benignRequestRows(paths.requests),
  ]);
}

/**
 * A text longer than the scorer's single segment is scored as the max over its windows (scoringSegments), never as a
 * whole, so a long row with no positive label is trained as those windows (same labels, same split group): a pasted
 * policy or contract then teaches the windows the gateway will actually score. Rows with a positive label stay whole:
 * most of a long positive's windows need not be positive. The rows the thresholds are chosen on (isBenignCorpus)
 * stay whole too, so the cuts are set on the same pools as before.
 */
function windowedNegatives(rows: SourcedExample[]): SourcedExample[] {
  const wc = DEFAULT_WINDOW_CONFIG;
  const out: SourcedExample[] = [];
  for (const e of rows) {
    if (e.text.length <= wc.maxSingle || e.y.some((v) => v === 1) || isBenignCorpus(e)) {
      out.push(e);
      continue;
    }
    for (const [a, b] of scoringSegments(e.text.length, wc)) out.push({ ...e, text: e.text.slice(a, b) });
  }
  return out;
}

