import { inject } from 'vitest';

/**
 * Vitest setup file: tells this worker's suites where to ask for their slot's moto, started
 * once for the run (test/support/moto-setup.ts). An environment variable rather than `inject`
 * in startLocalAws, so that the helpers also run outside vitest (the benchmarks use them).
 */
const broker = inject('motoBroker');
if (broker) process.env.SKYWATCH_TEST_MOTO = `${broker}/${process.env.VITEST_POOL_ID ?? '1'}`;
