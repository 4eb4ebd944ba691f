import { redact } from '../lib/index.js';
import { main } from './alerts/main.js';

// The commands' work is in scripts/alerts/, where tests run it as it runs here.
main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    console.error(`alerts failed: ${redact((error as Error).message)}`);
    process.exitCode = 1;
  },
);
