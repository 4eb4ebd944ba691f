import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runWorker, WorkerFailure } from '../../bench/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'skywatch-bench-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A worker script of the given body, as the bench runs its bundles (.mjs, no loader). */
function script(name: string, body: string): string {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, body);
  return file;
}

describe('Function: runWorker (a bench measurement in its own process)', () => {
  it("answers the last JSON line a worker printed, given the worker's arguments", async () => {
    const file = script(
      'ok',
      "console.log('warming up');\nconsole.log(JSON.stringify({ args: process.argv.slice(2) }));\n",
    );
    await expect(runWorker(file, ['archive', '10'])).resolves.toEqual({ args: ['archive', '10'] });
  });

  it('rejects with the error a worker reports, naming the worker and its mode', async () => {
    const file = script(
      'reports',
      "console.log(JSON.stringify({ mode: 'archive', error: 'S3 said no' }));\nprocess.exit(1);\n",
    );
    const failure = runWorker(file, ['archive']);
    await expect(failure).rejects.toBeInstanceOf(WorkerFailure);
    await expect(failure).rejects.toThrow('reports.mjs archive failed: S3 said no');
  });

  it('rejects a worker that exits with an error code, even after printing JSON', async () => {
    const file = script(
      'exits',
      'console.log(JSON.stringify({ endpoints: 1 }));\nprocess.exit(3);\n',
    );
    await expect(runWorker(file, ['discard'])).rejects.toThrow('exits.mjs discard exited with 3');
  });

  it('rejects a worker killed by a signal', async () => {
    const file = script('killed', "process.kill(process.pid, 'SIGKILL');\n");
    await expect(runWorker(file, ['archive'])).rejects.toThrow(
      'killed.mjs archive was killed by SIGKILL',
    );
  });

  it('rejects a worker that printed no JSON result', async () => {
    const file = script('silent', "console.log('done');\n");
    await expect(runWorker(file, ['fan-out'])).rejects.toThrow(
      'silent.mjs fan-out printed no result',
    );
  });
});
