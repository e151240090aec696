// Prints the plain closing line CI reads ("N passed, N failed") from vitest's JSON reports (the parallel
// run and the serial run of timing-sensitive and heavy tests), summed.
import { readFileSync } from 'node:fs';
import process from 'node:process';

const files = process.argv.length > 2 ? process.argv.slice(2) : ['.vitest-results.json'];
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of files) {
  try {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  } catch (e) {
    process.stdout.write(`tests: no report in ${file} (${e.message})\n`);
    process.exitCode = 1;
  }
}
process.stdout.write(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
