import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type BuildOptions, build, type Metafile } from 'esbuild';
import {
  chunkFileName,
  ESM_REQUIRE_BANNER,
  FUNCTION_ESBUILD_TARGET,
  FUNCTION_NODE_OPTIONS,
  lazyChunksOf,
} from '../infra/bundling.js';

/** Where the benchmarks write the bundles they measure (created on first use). */
export function benchBundlePath(file: string): string {
  const dir = resolve('bench/.bundles');
  mkdirSync(dir, { recursive: true });
  return join(dir, file);
}

/**
 * Bundles an entry as the stack's NodejsFunction does (infra/constructs/skywatch-function.ts):
 * one minified ESM file for the runtime's Node, with the createRequire banner and a source map
 * without sources, so what the benchmarks load and measure is what a Lambda would run
 * (test/infra/bundles.test.ts compares the two). A function's lazy chunks are written beside
 * `outfile`; the metafile answered is the function's own bundle's.
 */
export async function bundleLikeTheStack(entry: string, outfile: string): Promise<Metafile> {
  const chunks = lazyChunksOf(entry);
  const common: BuildOptions = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: FUNCTION_ESBUILD_TARGET,
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    mainFields: ['module', 'main'],
    banner: { js: ESM_REQUIRE_BANNER },
    logLevel: 'error',
  };
  const result = await build({
    ...common,
    entryPoints: [entry],
    outfile,
    external: chunks.map((c) => c.specifier),
    metafile: true,
  });
  // The function's lazy chunks beside it, as the stack's second esbuild run writes them
  // (infra/bundling.ts chunkEsbuildArgs).
  for (const chunk of chunks) {
    await build({
      entryPoints: [chunk.source],
      outfile: join(dirname(outfile), chunkFileName(chunk)),
      ...common,
    });
  }
  return result.metafile;
}

/**
 * The flags the stack starts every function with (its NODE_OPTIONS): with source maps on, Node
 * reads each bundle's map as it loads it, which a cold start pays for.
 */
export const DEPLOYED_NODE_FLAGS = FUNCTION_NODE_OPTIONS.split(' ').filter(Boolean);
