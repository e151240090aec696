// Prints the plain closing line CI reads ("N passed, N failed") from vitest's JSON report.
import { readFileSync } from 'node:fs';
import process from 'node:process';

const file = process.argv[2] ?? '.vitest-results.json';
try {
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  process.stdout.write(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
} catch (e) {
  process.stdout.write(`tests: no report (${e.message})\n`);
  process.exitCode = 1;
}
