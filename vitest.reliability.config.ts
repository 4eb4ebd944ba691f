import { defineConfig, type ViteUserConfig } from 'vitest/config';

// In CI a JSON report feeds the plain closing line of .ci/run, beside the main suite's.
const reporters: NonNullable<ViteUserConfig['test']>['reporters'] = process.env.CI
  ? ['default', ['json', { outputFile: '.ci/vitest-reliability.json' }]]
  : ['default'];

// `npm run test:reliability`: the fault-injection suites of test/reliability, kept out of
// `npm test` because they run for minutes. Same pool and environment as vitest.config.ts.
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    exclude: ['node_modules/**'],
    // Each file starts its own emulator and moto; two cores keep the pool small.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 240_000,
    hookTimeout: 60_000,
    reporters,
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
