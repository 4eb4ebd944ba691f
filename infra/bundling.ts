/**
 * How every function is bundled and started, in a module of its own (no CDK import) so that the
 * benchmarks build and start the very bundles the stack deploys.
 */

/** esbuild's syntax target: the stack's runtime, Node.js 24 (FUNCTION_RUNTIME). */
export const FUNCTION_ESBUILD_TARGET = 'node24';

/** ESM bundles still meet CommonJS dependencies that call require(); give them one. */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __skywatchCreateRequire } from 'node:module'; const require = __skywatchCreateRequire(import.meta.url);";

/** NODE_OPTIONS of every function: stack traces in the logs name the TypeScript sources. */
export const FUNCTION_NODE_OPTIONS = '--enable-source-maps';
