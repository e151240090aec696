// Prints the plain closing line CI reads ("N passed, N failed") from vitest's JSON reports (the parallel
// run and the serial run of timing-sensitive and heavy tests), summed, after the name and first message
// line of every failed test, so a failure is identifiable from the tail of the log alone.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import process from 'node:process';

const files = process.argv.length > 2 ? process.argv.slice(2) : ['.vitest-results.json'];
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
for (const file of files) {
  try {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    for (const suite of r.testResults ?? []) {
      const where = relative(process.cwd(), suite.name ?? '');
      for (const t of suite.assertionResults ?? []) {
        if (t.status !== 'failed') continue;
        const first = String(t.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300);
        failures.push(`FAILED ${where} > ${t.fullName ?? t.title}\n       ${first}`);
      }
      // A file that failed to load has no assertion results, only a message.
      if (suite.status === 'failed' && !(suite.assertionResults ?? []).some((t) => t.status === 'failed')) {
        failures.push(`FAILED ${where}\n       ${String(suite.message ?? '').split('\n')[0].slice(0, 300)}`);
      }
    }
  } catch (e) {
    process.stdout.write(`tests: no report in ${file} (${e.message})\n`);
    process.exitCode = 1;
  }
}
// Tests that failed once and passed on their retry (test/flaky-reporter.ts): passed, but named.
for (const run of ['parallel', 'serial']) {
  let flaky = [];
  try {
    flaky = JSON.parse(readFileSync(`.vitest-flaky-${run}.json`, 'utf8'));
  } catch {
    continue;
  }
  for (const t of flaky) {
    process.stdout.write(`FLAKY (passed on retry ${t.retries}, ${run} run) ${t.file} > ${t.name}\n       ${(t.errors[0] ?? '').slice(0, 300)}\n`);
  }
}
for (const f of failures) process.stdout.write(`${f}\n`);
process.stdout.write(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
