import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FUNCTION_NODE_OPTIONS } from '../infra/bundling.js';

/** Where the benchmarks write the bundles they measure (created on first use). */
export function benchBundlePath(file: string): string {
  const dir = resolve('bench/.bundles');
  mkdirSync(dir, { recursive: true });
  return join(dir, file);
}

/** The stack's NODE_OPTIONS: with source maps on, a cold start pays for reading the map. */
export const DEPLOYED_NODE_FLAGS = FUNCTION_NODE_OPTIONS.split(' ').filter(Boolean);
