import { defineConfig, type ViteUserConfig } from 'vitest/config';
import LongestFirstSequencer from './test/support/sequencer.js';

// In CI the JSON report feeds the plain "N passed, N failed" closing line of .ci/run.
const reporters: NonNullable<ViteUserConfig['test']>['reporters'] = process.env.CI
  ? ['default', ['json', { outputFile: '.ci/vitest-results.json' }]]
  : ['default'];

// One `vitest run` (the README's `npm test`) runs every suite: the unit suites, the integration,
// command and fault-injection suites (test/reliability), and one suite that needs a process of
// its own. Select with `--project units`, `suites` or `own-process`, or by folder
// (`npm run test:reliability`; `npm run test:suites` runs all but test/reliability).
// The suites that load handlers with an environment of their own, or run the product's
// commands, share a worker too: each file gets the project's modules afresh and its environment
// taken back at its end (test/support/fresh-modules.ts). The fault-injection suites are in the
// same project, not one of their own: vitest starts a new worker whenever the next file is
// another project's, with the SDK and the project's modules to load again.
export default defineConfig({
  test: {
    // Integration suites start servers on free ports; two cores keep the pool small.
    pool: 'forks',
    maxWorkers: 2,
    hookTimeout: 60_000,
    // One temporary folder for the run, removed at its end (every process gets it as TMPDIR);
    // moto's server for the AWS suites, installed into .venv-moto/ when no python has it, and
    // started once per worker slot for the whole run; each worker's suites are pointed at theirs.
    globalSetup: ['test/support/run-temp-dir.ts', 'test/support/moto-setup.ts'],
    setupFiles: ['test/support/shared-moto.ts'],
    reporters,
    // Project by project, long files first in each, also on a fresh clone without vitest's
    // timing cache (test/support/sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    // No X-Ray daemon in tests: the tracer is off unless a test turns it on. CloudFormation's
    // schema checks, which every synth runs by default, start an engine of seconds in each
    // worker and only print warnings: the infra suites read templates, and
    // test/infra/cloudformation-validation.test.ts runs the checks and fails on any finding.
    env: {
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      POWERTOOLS_TRACE_ENABLED: 'false',
      CDK_VALIDATION: 'false',
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'units',
          // Suites that leave nothing behind in the process (no handler loaded with its
          // environment, no process-wide setting or hook) share their worker's process instead
          // of each loading the SDK, the emulator, aws-cdk-lib and its CloudFormation validator
          // again (seconds a file).
          include: ['test/{lib,client,emulator,docs,functions,infra,aws,alerts}/**/*.test.ts'],
          exclude: ['test/functions/tracing.test.ts'],
          testTimeout: 20_000,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'suites',
          include: ['test/**/*.test.ts'],
          exclude: [
            'test/{lib,client,emulator,docs,infra,aws,alerts,functions}/**',
            'node_modules/**',
          ],
          testTimeout: 20_000,
          isolate: false,
          setupFiles: ['test/support/shared-moto.ts', 'test/support/fresh-modules.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'own-process',
          // Turns tracing on, which hooks every SDK client made after it in its process.
          include: ['test/functions/tracing.test.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
