import { redact } from '../lib/index.js';

/** A command line a command cannot run: its message is the usage problem, shown as it is. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** What a command's work writes to; tests give their own and read it back. */
export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/**
 * Runs a command's work (kept out of the entry file, so that tests run it as it runs here)
 * with the process's streams, and sets the exit code from its answer; an error it throws is
 * one line on stderr, redacted, and exit code 1.
 */
export function runCommand(
  name: string,
  work: (argv: string[], io: CommandIo) => Promise<number>,
): void {
  work(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  }).then(
    (status) => {
      process.exitCode = status;
    },
    (error: unknown) => {
      console.error(`${name} failed: ${redact((error as Error).message)}`);
      process.exitCode = 1;
    },
  );
}
