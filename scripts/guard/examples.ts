/** Every training row of the guard model, in training order: the shared data files and our generated corpora. */
import { attackCorpus, benignCorpus, moderationCorpus } from './corpus.js';
import { contextNegatives } from './context-negatives.js';
import { DEFAULT_DATA_OPTIONS, extraExamples, readJsonl, unifiedExamples, type SourcedExample } from './data.js';
import { hateFunctionalRows } from './hate-functional.js';
import { moderationHardNegatives, moderationPositives, profanityNegatives } from './moderation-text.js';
import { violenceRows } from './violence-text.js';

export function trainingExamples(paths: { data: string; extra: string }): SourcedExample[] {
  return [
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
  ];
}
