import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';

// test/support/run-temp-dir.ts: what the suites write to the temporary folder goes when the
// run ends, because the run has a folder of its own.
describe('The run’s temporary folder', () => {
  it('is one the run made for itself', () => {
    expect(basename(tmpdir())).toMatch(/^skywatch-test-/);
    expect(existsSync(tmpdir())).toBe(true);
  });
});
