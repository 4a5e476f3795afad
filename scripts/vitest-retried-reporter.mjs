// A Vitest reporter that writes the tests that passed only on a retry to the
// file named by VITEST_RETRIED_FILE (Vitest's JSON report does not say), so
// scripts/test.mjs can count and name them apart from first-try passes.
import fs from 'node:fs';

export default class RetriedReporter {
  retried = [];

  onTestCaseResult(testCase) {
    const { retryCount = 0 } = testCase.diagnostic() ?? {};
    if (retryCount > 0 && testCase.result().state === 'passed') {
      this.retried.push(`${testCase.module.relativeModuleId} > ${testCase.fullName} (retry ${retryCount})`);
    }
  }

  onTestRunEnd() {
    const file = process.env.VITEST_RETRIED_FILE;
    if (file) fs.writeFileSync(file, JSON.stringify(this.retried, null, 1));
  }
}
