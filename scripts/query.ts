import { runQuery } from './query/run-query.js';

// The command's work is in scripts/query/run-query.ts, where tests run it as it runs here.
runQuery(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    console.error(`query failed: ${(error as Error).message}`);
    process.exitCode = 1;
  },
);
