import { afterAll, vi } from 'vitest';

/**
 * Vitest setup file for suites that share a worker process (the `suites` project): each test
 * file gets the project's own modules evaluated afresh, so a handler reads the environment this
 * file gives it when it loads, as a Lambda does at its cold start, while node_modules (the AWS
 * SDK, Powertools, zod: seconds a file to load) stay loaded in the process. The environment a
 * file sets is taken back when it ends, so the next file starts from the run's.
 */
vi.resetModules();
const runEnvironment = { ...process.env };
afterAll(() => {
  for (const name of Object.keys(process.env))
    if (!(name in runEnvironment)) delete process.env[name];
  Object.assign(process.env, runEnvironment);
});
