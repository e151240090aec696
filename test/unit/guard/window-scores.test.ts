import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { LEXICON } from '../../../src/guard/lexicon.js';
import { loadModel, logitsOf, quantizeWeights, type GuardModel } from '../../../src/guard/model.js';
import { defaultModelPath, findProjectRoot } from '../../../src/guard/paths.js';
import { trainModel } from '../../../src/guard/train.js';
import { SYNTHETIC, syntheticExamples, TEST_TRAIN } from './helpers.js';
import { windowLogitsReference } from './window-reference.js';

// The optimised one-pass window scorer (register accumulators, 32-bit table view, word sums only at the points the
// windows read, shared scratch across calls) against windows featurised one by one (window-reference.ts).

const words = [
  ...new Set([
    ...Object.values(SYNTHETIC).flat().join(' ').split(/\s+/),
    ...Object.values(LEXICON).flat().slice(0, 300).join(' ').split(/\s+/),
    "don't", "it's", 'café', 'naïve', 'straße', '—', '...', ',', '.', '!', '😀', 'x', '42', 'a_b', "'", '"',
  ]),
].filter((w) => w.length > 0);

const textArb = fc
  .array(fc.tuple(fc.integer({ min: 0, max: words.length - 1 }), fc.constantFrom(' ', ' ', ' ', '\n\n', ', ', '  ', '')), { minLength: 60, maxLength: 700 })
  .map((parts) => parts.map(([i, sep]) => `${words[i] ?? ''}${sep}`).join(''))
  .filter((t) => t.length > 600);

function check(model: GuardModel, runs: number): void {
  fc.assert(
    fc.property(textArb, (text) => {
      const a = logitsOf(model, text);
      const b = windowLogitsReference(model, text);
      for (let l = 0; l < 8; l++) {
        if (!(Math.abs((a[l] ?? 0) - (b[l] ?? 0)) < 1e-9)) return false;
      }
      return true;
    }),
    { numRuns: runs, seed: 4242 },
  );
}

describe('one-pass window scorer = windows scored one by one', () => {
  it('f32 and q8 test models, random texts', () => {
    const f32 = trainModel(syntheticExamples(), TEST_TRAIN);
    check(f32, 60);
    const q8 = trainModel(syntheticExamples(), TEST_TRAIN);
    quantizeWeights(q8);
    check(q8, 60);
  });

  const modelPath = defaultModelPath(findProjectRoot(import.meta.url));
  it.skipIf(!existsSync(modelPath))('the shipped model (q8, word rows), full and score-only loads, random texts', () => {
    check(loadModel(modelPath), 60);
    check(loadModel(modelPath, { scoringOnly: true }), 60);
  });
});
