/**
 * How every function is bundled and started, in a module of its own (no CDK import) so that the
 * benchmarks build and start the very bundles the stack deploys, with the same code.
 */
import { readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, posix, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, buildSync, type Metafile } from 'esbuild';

/** The repository root: entries and chunk sources are resolved from it. */
export const PROJECT_ROOT = dirname(fileURLToPath(new URL('.', import.meta.url)));

/** esbuild's syntax target: the stack's runtime, Node.js 24 (FUNCTION_RUNTIME). */
export const FUNCTION_ESBUILD_TARGET = 'node24';

/** ESM bundles still meet CommonJS dependencies that call require(); give them one. */
const ESM_REQUIRE_BANNER =
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
function chunkFileName(chunk: LazyChunk): string {
  return chunk.specifier.slice(2);
}

/**
 * Bundles a function's entry into `outfile` (a `.mjs`), its lazy chunks beside it: one minified
 * ESM file for the runtime's Node, with the createRequire banner and a source map without
 * sources. The stack (infra/constructs/skywatch-function.ts) and the benchmarks both bundle
 * through it, so what the benchmarks load and measure is what a Lambda runs. esbuild's API
 * rather than the NodejsFunction construct: that one starts esbuild through `npx --no-install`,
 * a second of npm starting per function at every synth, and can write a function's chunks only
 * by running esbuild again from a shell. Synchronous, as CDK's local bundling is; answers
 * `outfile`.
 */
export function bundleFunction(entry: string, outfile: string): string {
  bundleFunctions(dirname(outfile), { [basename(outfile, '.mjs')]: entry });
  return outfile;
}

/**
 * Bundles functions in one esbuild run, `<name>.mjs` each under `dir` with its lazy chunks beside
 * it (a name may hold a folder: `a/index`): the modules they share, the AWS SDK's first, are
 * parsed once instead of once a function, half the CPU of bundling them one by one. Each file is
 * what a run of its own gives, but for the source map's name. Answers the run's metafile.
 */
export function bundleFunctions(dir: string, entries: Readonly<Record<string, string>>): Metafile {
  const chunks = new Map<string, { in: string; out: string }>();
  const external = new Set<string>();
  for (const [name, entry] of Object.entries(entries))
    for (const chunk of lazyChunksOf(entry)) {
      const out = posix.join(posix.dirname(name), chunkFileName(chunk).replace(/\.mjs$/, ''));
      chunks.set(out, { in: resolve(PROJECT_ROOT, chunk.source), out });
      external.add(chunk.specifier);
    }
  const result = buildSync({
    ...commonOptions(),
    entryPoints: [
      ...Object.entries(entries).map(([name, entry]) => ({
        in: resolve(PROJECT_ROOT, entry),
        out: name,
      })),
      ...chunks.values(),
    ],
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    // A chunk's specifier appears only in the functions that load it.
    external: [...external],
    metafile: true,
  });
  return result.metafile;
}

/** Folders of a synth's bundles not yet taken by their assets, by the folder CDK stages into. */
const stackBundles = new Map<string, Map<string, string>>();

/**
 * The stack's bundling of one function into its asset's folder. The first function a synth
 * bundles builds all of `stackEntries` in one esbuild run (bundleFunctions), each into a folder
 * beside the asset's, at its depth, so that each source map's paths are those a run of its own
 * writes there and the asset's bytes and hash are the same; each asset then takes its own.
 */
export function bundleStackFunction(
  entry: string,
  stackEntries: readonly string[],
  outputDir: string,
): void {
  const parent = dirname(outputDir);
  let folders = stackBundles.get(parent);
  if (!folders?.has(entry)) {
    const all = [...new Set([entry, ...stackEntries])];
    folders = new Map(all.map((e, i) => [e, `skywatch-bundle-${process.pid}-${i}`]));
    bundleFunctions(parent, Object.fromEntries([...folders].map(([e, f]) => [`${f}/index`, e])));
    stackBundles.set(parent, folders);
    const made = folders;
    // A function the synth never stages leaves no folder behind.
    process.once('exit', () => {
      for (const f of made.values()) rmSync(join(parent, f), { recursive: true, force: true });
    });
  }
  const name = folders.get(entry);
  if (name === undefined) throw new Error(`${entry} has no bundle`);
  const folder = join(parent, name);
  folders.delete(entry);
  if (folders.size === 0) stackBundles.delete(parent);
  for (const file of readdirSync(folder)) renameSync(join(folder, file), join(outputDir, file));
  rmSync(folder, { recursive: true, force: true });
}

function commonOptions(): BuildOptions {
  return {
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
    // Module paths inside the bundle are relative to it, wherever the entry is given from.
    absWorkingDir: PROJECT_ROOT,
  };
}
