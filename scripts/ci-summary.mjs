// Prints vitest's JSON results as one plain line: "N passed, N failed, N skipped".
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.ci/vitest-results.json';
const results = JSON.parse(readFileSync(file, 'utf8'));
const skipped = (results.numPendingTests ?? 0) + (results.numTodoTests ?? 0);
console.log(
  `${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped`,
);
