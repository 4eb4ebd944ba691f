/**
 * How every function is bundled and started, in a module of its own (no CDK import) so that the
 * benchmarks build and start the very bundles the stack deploys.
 */
import { sep } from 'node:path';

/** esbuild's syntax target: the stack's runtime, Node.js 24 (FUNCTION_RUNTIME). */
export const FUNCTION_ESBUILD_TARGET = 'node24';

/** ESM bundles still meet CommonJS dependencies that call require(); give them one. */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __skywatchCreateRequire } from 'node:module'; const require = __skywatchCreateRequire(import.meta.url);";

/** NODE_OPTIONS of every function: stack traces in the logs name the TypeScript sources. */
export const FUNCTION_NODE_OPTIONS = '--enable-source-maps';

/**
 * A module a function loads with `import()` on first use, bundled into a file of its own beside
 * the function's index.mjs. The stack's esbuild writes one file (it cannot split an `outfile`),
 * and a module inside that file is parsed at every cold start even when it is never run; in its
 * own file it is read only when the function first needs it.
 */
export interface LazyChunk {
  /**
   * The `import()` specifier as the function's code writes it, `./<file>.mjs`: left external in
   * the function's bundle, and the chunk's file name in the asset.
   */
  readonly specifier: `./${string}.mjs`;
  /** The module's source file, relative to the project root (an `.mts`, whose `.mjs` it is). */
  readonly source: string;
}

/** hash-wasm's SHA-256, whose state a resumable object's checkpoint saves. */
const SHA256_WASM: LazyChunk = {
  specifier: './sha256-wasm.mjs',
  source: 'lib/aws/sha256-wasm.mts',
};

/** Powertools Tracer with the X-Ray SDK, loaded only when a function traces its calls. */
const CALL_TRACER: LazyChunk = {
  specifier: './call-tracer.mjs',
  source: 'functions/shared/call-tracer.mts',
};

/**
 * Chunks by function entry, beside the call tracer every function has. The report builder's
 * ECharts, with zrender, is most of its bundle and is needed only when a page draws its first
 * chart; the archive's hash-wasm, only when a walk opens its first object (a run that finds
 * its day archived opens none).
 */
const LAZY_CHUNKS: Readonly<Record<string, readonly LazyChunk[]>> = {
  'functions/report-builder/handler.ts': [
    { specifier: './echarts-setup.mjs', source: 'lib/reports/echarts-setup.mts' },
  ],
  'functions/report-fetcher/handler.ts': [SHA256_WASM],
  'functions/archive-worker/handler.ts': [SHA256_WASM],
};

/**
 * The chunks of one function, by its entry: absolute (the stack's, under its project root) or
 * relative to the project root (the benchmarks').
 */
export function lazyChunksOf(entry: string): readonly LazyChunk[] {
  const path = entry.split(sep).join('/');
  const key = Object.keys(LAZY_CHUNKS).find((k) => path === k || path.endsWith(`/${k}`));
  const own = key === undefined ? [] : (LAZY_CHUNKS[key] ?? []);
  const isFunction = path.startsWith('functions/') || path.includes('/functions/');
  return isFunction ? [CALL_TRACER, ...own] : own;
}

/** The chunk's file name in the function's asset, beside index.mjs. */
export function chunkFileName(chunk: LazyChunk): string {
  return chunk.specifier.slice(2);
}

/**
 * esbuild's command-line flags for a chunk: built as the function itself is (ESM, minified, for
 * the runtime's Node, with a source map without sources). bench/bundle.ts passes the same
 * options to esbuild's API, and test/infra/bundles.test.ts checks that both agree.
 */
export function chunkEsbuildArgs(chunk: LazyChunk, inputDir: string, outputDir: string): string[] {
  return [
    `"${inputDir}/${chunk.source}"`,
    '--bundle',
    '--platform=node',
    '--format=esm',
    `--target=${FUNCTION_ESBUILD_TARGET}`,
    `--outfile="${outputDir}/${chunkFileName(chunk)}"`,
    '--minify',
    '--sourcemap',
    '--sources-content=false',
    '--main-fields=module,main',
    `"--banner:js=${ESM_REQUIRE_BANNER}"`,
    '--log-level=error',
  ];
}
