import { startProduct } from '../test/support/product.js';

/**
 * A simulated day of every schedule on the emulator's clock, one minute a tick: the refresher
 * every 5 minutes (the token lifetime), the infection alerter every 5 (every minute as deployed:
 * it never asks for a token, so its rate moves nothing counted here), the
 * blocked-URL alerter hourly, the report fetcher daily. Counts token endpoint calls against
 * the target (24 h / lifetime + 1) and against re-authenticating in every run.
 */
export interface TokenEconomy {
  simulatedHours: number;
  functionRuns: number;
  tokenCalls: number;
  passwordGrants: number;
  refreshGrants: number;
  target: number;
  reauthenticateEveryRun: number;
  wallMs: number;
}

/** Hours simulated; the smoke test's 3 leave out the 06:00 report fetch (it asks no token). */
const HOURS = Number(process.env.BENCH_TOKEN_HOURS ?? 24);
export async function tokenEconomy(): Promise<TokenEconomy> {
  const started = performance.now();
  const product = await startProduct({
    now: '2026-03-01T00:00:00Z',
    seed: 11,
    sitesPerGsm: 3,
    endpointsPerGsm: 60,
  });
  try {
    let runs = 0;
    const run = async (name: Parameters<typeof product.run>[0]) => {
      runs++;
      await product.run(name);
    };
    for (let minute = 0; minute < HOURS * 60; minute++) {
      if (minute % 5 === 0) await run('token-refresher');
      if (minute % 5 === 0) await run('infection-alerter');
      if (minute % 60 === 15) await run('blocked-url-alerter');
      if (minute === 6 * 60) await run('report-fetcher');
      product.emulator.advanceClock(60);
    }
    const grants = product.emulator.stats().tokenGrants;
    const lifetime = 300;
    return {
      simulatedHours: HOURS,
      functionRuns: runs,
      tokenCalls: grants.password + grants.refresh_token + grants.token_exchange,
      passwordGrants: grants.password,
      refreshGrants: grants.refresh_token,
      target: (HOURS * 3600) / lifetime + 1,
      reauthenticateEveryRun: runs,
      wallMs: performance.now() - started,
    };
  } finally {
    await product.close();
  }
}
