/**
 * hash-wasm's SHA-256, whose state a checkpoint can save, loaded by `resumable-object.ts` on
 * first use: a walk that writes no object never needs it. The stack bundles this module into a
 * file of its own beside the function (infra/bundling.ts, LAZY_CHUNKS), so a cold start neither
 * parses nor runs it; an `.mts` so that the chunk, an `.mjs`, and this source answer the same
 * `import()` specifier.
 */
export { createSHA256 } from 'hash-wasm';
