// Prints vitest's JSON results (one or more files) as one plain line:
// "N passed, N failed, N skipped". Files that do not exist (a suite that did not run) are skipped.
import { existsSync, readFileSync } from 'node:fs';

const totals = { passed: 0, failed: 0, skipped: 0 };
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) continue;
  const results = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += results.numPassedTests ?? 0;
  totals.failed += results.numFailedTests ?? 0;
  totals.skipped += (results.numPendingTests ?? 0) + (results.numTodoTests ?? 0);
}
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
