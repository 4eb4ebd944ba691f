import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SEMI_SPACE_WRAPPER } from '../../infra/bundling.js';

// The wrapper run as Lambda runs it: `<wrapper> <node> <the runtime's arguments>`, with real
// processes (POSIX sh, this Node) and the runtime's arguments for 1,024 MB.
const RUNTIME_ARGS = [
  '--expose-gc',
  '--max-http-header-size',
  '81920',
  '--max-semi-space-size=51',
  '--max-old-space-size=922',
];
const dir = mkdtempSync(path.join(tmpdir(), 'skywatch-wrapper-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An entry script that reports what Node was started with and the young generation it got. */
const entry = path.join(dir, 'entry.mjs');
writeFileSync(
  entry,
  `import v8 from 'node:v8';
// Enough surviving allocation for V8 to grow the young generation to its limit, on a loaded
// machine too: with 2,000,000 objects it stopped at half the limit in 1 of 20 runs beside three
// busy processes, with 4,000,000 in none.
const kept = [];
for (let i = 0; i < 4_000_000; i++) kept.push({ i });
const newSpace = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
console.log(JSON.stringify({
  execArgv: process.execArgv,
  argv: process.argv.slice(2),
  newSpaceMiB: newSpace.space_size / 2 ** 20,
  kept: kept.length,
}));
`,
);

function wrap(args: string[], sizeMb: string | undefined) {
  const run = spawnSync(SEMI_SPACE_WRAPPER.source, [process.execPath, ...args], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      ...(sizeMb === undefined ? {} : { [SEMI_SPACE_WRAPPER.sizeVariable]: sizeMb }),
    },
  });
  expect(run.status, run.stderr).toBe(0);
  return {
    ...(JSON.parse(run.stdout) as { execArgv: string[]; argv: string[]; newSpaceMiB: number }),
    stderr: run.stderr,
  };
}

describe('semi-space exec wrapper', () => {
  it("replaces the runtime's semi-space flag and keeps every other argument in order", () => {
    const got = wrap([...RUNTIME_ARGS, entry], '8');
    expect(got.execArgv).toEqual([
      '--expose-gc',
      '--max-http-header-size',
      '81920',
      '--max-semi-space-size=8',
      '--max-old-space-size=922',
    ]);
    expect(got.stderr).toBe('');
  });

  it('gives V8 the smaller young generation (two semi-spaces)', () => {
    const runtime = wrap([...RUNTIME_ARGS, entry], undefined);
    const wrapped = wrap([...RUNTIME_ARGS, entry], '8');
    expect(runtime.newSpaceMiB).toBe(128);
    expect(wrapped.newSpaceMiB).toBeLessThanOrEqual(16);
  });

  it("leaves the entry script's own arguments alone, spaces and look-alike flags included", () => {
    const got = wrap([...RUNTIME_ARGS, entry, 'a b', '--max-semi-space-size=3'], '8');
    expect(got.argv).toEqual(['a b', '--max-semi-space-size=3']);
    expect(got.execArgv).toContain('--max-semi-space-size=8');
  });

  it('adds the flag before the entry script when the runtime no longer passes one', () => {
    expect(wrap(['--expose-gc', entry], '16').execArgv).toEqual([
      '--max-semi-space-size=16',
      '--expose-gc',
    ]);
  });

  for (const bad of [undefined, '', 'eight', '0', '08', '-1', '8 --inspect']) {
    it(`starts the runtime as it was, and says why, when the size is ${JSON.stringify(bad)}`, () => {
      const got = wrap([...RUNTIME_ARGS, entry], bad);
      expect(got.execArgv).toEqual(RUNTIME_ARGS);
      expect(got.stderr).toMatch(
        /SKYWATCH_V8_SEMI_SPACE_MB='.*' is not a positive whole number of MB/,
      );
    });
  }
});
