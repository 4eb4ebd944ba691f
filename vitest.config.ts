import { defineConfig, type ViteUserConfig } from 'vitest/config';

// In CI the JSON report feeds the plain "N passed, N failed" closing line of .ci/run.
const reporters: NonNullable<ViteUserConfig['test']>['reporters'] = process.env.CI
  ? ['default', ['json', { outputFile: '.ci/vitest-results.json' }]]
  : ['default'];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/reliability/**', 'node_modules/**'],
    // Integration suites start servers on free ports; two cores keep the pool small.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    reporters,
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
