import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FanOut } from '../../bench/fan-out.js';

// A bench run is 25 minutes: a step that fails late (once, the report page, for want of a
// browser) must not take the figures of the steps before it down with it.
let dir: string;
let stdout = '';
let stderr = '';
let exitCode: number | null = null;
let result: { fanOut?: FanOut; page?: unknown; failed: { step: string; reason: string }[] };

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'skywatch-bench-steps-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts'], {
    env: {
      ...process.env,
      BENCH_STEPS: 'fan-out,report-page',
      BENCH_FAN_OUT_SITES: '200',
      CHROMIUM_PATH: path.join(dir, 'no-such-chromium'),
      BENCH_RESULTS_DIR: dir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  [exitCode] = (await once(child, 'exit')) as [number | null];
  result = JSON.parse(readFileSync(path.join(dir, 'latest.json'), 'utf8'));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Command: npm run bench, a step that fails', () => {
  it('runs only the steps BENCH_STEPS names', () => {
    expect(stdout).toContain('3. fan-out');
    expect(stdout).toContain('5. report page');
    expect(stdout).not.toContain('1. archive at scale');
    expect(stdout).not.toContain('token calls in 24 h');
  });

  it('still prints and writes what the other steps measured', () => {
    expect(stdout).toMatch(/fan-out 200 sites × 50 ms, concurrency 16 +[\d.]+ s/);
    expect(result.fanOut?.fetched).toBe(200);
    expect(result.page).toBeUndefined();
  });

  it('names the failed step and why, and exits 1', () => {
    expect(exitCode).toBe(1);
    expect(stdout).toMatch(
      /report-page +FAILED: .*CHROMIUM_PATH=.*no-such-chromium does not exist/,
    );
    expect(stderr).toContain('bench: report-page failed; the rest is above');
    expect(result.failed.map((f) => f.step)).toEqual(['report-page']);
  });
});
