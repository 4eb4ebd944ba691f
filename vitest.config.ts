import { defineConfig, type ViteUserConfig } from 'vitest/config';

// In CI the JSON report feeds the plain "N passed, N failed" closing line of .ci/run.
const reporters: NonNullable<ViteUserConfig['test']>['reporters'] = process.env.CI
  ? ['default', ['json', { outputFile: '.ci/vitest-results.json' }]]
  : ['default'];

// One `vitest run` (the README's `npm test`) runs every suite: the fast ones and the
// fault-injection suites of test/reliability, which get longer timeouts. Select one with
// `--project suites` or `--project reliability`.
export default defineConfig({
  test: {
    // Integration suites start servers on free ports; two cores keep the pool small.
    pool: 'forks',
    maxWorkers: 2,
    hookTimeout: 60_000,
    // moto's server for the AWS suites, installed into .venv-moto/ when no python has it.
    globalSetup: ['test/support/moto-setup.ts'],
    reporters,
    // No X-Ray daemon in tests: the tracer is off unless a test turns it on.
    env: {
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      POWERTOOLS_TRACE_ENABLED: 'false',
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'suites',
          include: ['test/**/*.test.ts'],
          exclude: ['test/reliability/**', 'node_modules/**'],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'reliability',
          include: ['test/reliability/**/*.test.ts'],
          // Scheduled runs under faults simulate ten days of every schedule.
          testTimeout: 240_000,
        },
      },
    ],
  },
});
