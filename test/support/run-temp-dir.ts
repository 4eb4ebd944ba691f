import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface RunTempDir {
  dir: string;
  previous: string | undefined;
  users: number;
}

// Every project runs the global setup (see moto-setup.ts): the first makes the folder, the
// last to finish removes it.
const SHARED = Symbol.for('skywatch.test.runTempDir');
const store = globalThis as { [SHARED]?: RunTempDir };

/**
 * Vitest global setup: one temporary folder for the whole run, removed at its end. Every
 * process of the run (workers, moto, the commands and browsers tests start) inherits it as
 * TMPDIR, so what they leave behind goes with it: each stack synthesized in a test writes a
 * cloud assembly under the temporary folder, and a developer running the suite often used to
 * find thousands of them there.
 */
export default function setup(): () => void {
  if (!store[SHARED]) {
    const dir = mkdtempSync(join(tmpdir(), 'skywatch-test-'));
    store[SHARED] = { dir, previous: process.env.TMPDIR, users: 0 };
    process.env.TMPDIR = dir;
  }
  const shared = store[SHARED];
  shared.users++;
  return () => {
    if (--shared.users > 0) return;
    store[SHARED] = undefined;
    if (shared.previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = shared.previous;
    rmSync(shared.dir, { recursive: true, force: true });
  };
}
