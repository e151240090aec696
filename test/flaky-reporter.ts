/**
 * Records every test that failed and then passed on a retry (`make test` allows one: a timing test on a loaded
 * 2-core machine can miss a bound once) in `.vitest-flaky-<run>.json`, so scripts/test-summary.mjs names it in
 * the closing lines instead of the retry hiding it. A test that fails on its retry too still fails the run.
 */
import { writeFileSync } from 'node:fs';
import type { Reporter, TestCase } from 'vitest/node';

interface Flaky {
  file: string;
  name: string;
  retries: number;
  errors: string[];
}

export default class FlakyReporter implements Reporter {
  readonly #flaky: Flaky[] = [];

  onTestCaseResult(testCase: TestCase): void {
    const d = testCase.diagnostic();
    if (!d?.flaky) return;
    this.#flaky.push({
      file: testCase.module.relativeModuleId,
      name: testCase.fullName,
      retries: d.retryCount,
      errors: (testCase.result().errors ?? []).map((e) => String(e.message ?? '').split('\n')[0] ?? ''),
    });
  }

  onTestRunEnd(): void {
    const run = process.env['VITEST_SERIAL'] === '1' ? 'serial' : 'parallel';
    writeFileSync(`.vitest-flaky-${run}.json`, `${JSON.stringify(this.#flaky, null, 1)}\n`);
  }
}
