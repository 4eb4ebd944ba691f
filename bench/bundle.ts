import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bundleFunction, FUNCTION_NODE_OPTIONS } from '../infra/bundling.js';

/** Where the benchmarks write the bundles they measure (created on first use). */
export function benchBundlePath(file: string): string {
  const dir = resolve('bench/.bundles');
  mkdirSync(dir, { recursive: true });
  return join(dir, file);
}

/** The stack's NODE_OPTIONS: with source maps on, a cold start pays for reading the map. */
export const DEPLOYED_NODE_FLAGS = FUNCTION_NODE_OPTIONS.split(' ').filter(Boolean);

// Built once a run: the archive and latency walks run a bundle, as a Lambda does, not tsx.
let walker: string | undefined;
export function archiveWorkerBundle(): string {
  walker ??= bundleFunction('bench/archive-worker.ts', benchBundlePath('archive-worker.mjs'));
  return walker;
}
