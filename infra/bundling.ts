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

/**
 * The exec wrapper that gives the functions which archive a smaller V8 young generation than the
 * Lambda runtime's (infra/runtime/semi-space-wrapper.sh says why). It is copied next to the
 * bundle, so Lambda finds it at /var/task, and reads its size from one environment variable.
 */
export const SEMI_SPACE_WRAPPER = {
  /** Relative to the project root. */
  source: 'infra/runtime/semi-space-wrapper.sh',
  fileName: 'semi-space-wrapper.sh',
  /** Where Lambda finds it: AWS_LAMBDA_EXEC_WRAPPER. */
  deployedPath: '/var/task/semi-space-wrapper.sh',
  /** The semi-space size in MB (V8's --max-semi-space-size). */
  sizeVariable: 'SKYWATCH_V8_SEMI_SPACE_MB',
  /** The largest size the stack, its settings and the bench accept, in MB. */
  maxMb: 64,
} as const;
