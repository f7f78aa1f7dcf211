// Prints one closing line, "e2e: N passed, N failed, N skipped", that CI logs can be read by.
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

export default class SummaryReporter implements Reporter {
  private readonly outcomes = new Map<string, ReturnType<TestCase['outcome']>>();

  onTestEnd(test: TestCase, _result: TestResult): void {
    this.outcomes.set(test.id, test.outcome());
  }

  onEnd(result: FullResult): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const outcome of this.outcomes.values()) {
      if (outcome === 'expected' || outcome === 'flaky') passed++;
      else if (outcome === 'skipped') skipped++;
      else failed++;
    }
    // A run that could not start (no browser, no server) reports no tests but must not read as green.
    if (result.status !== 'passed' && failed === 0) failed = 1;
    console.log(`e2e: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
