import type { EmulatorStats, FaultRule } from '../../../emulator/index.js';
import type { FunctionName } from '../../../scripts/local/functions.js';
import { type Product, startProduct } from '../../support/product.js';
import { archiveHashes, prng } from './archive.js';
import { captureOutput } from './capture.js';
import { virtualContext } from './virtual-time.js';

/**
 * A stretch of scheduled operation, tick by tick, with the emulator's clock advanced between
 * ticks: what EventBridge Scheduler and Lambda's asynchronous retries would do, replayed in one
 * process. Everything but the fault rules is drawn from `seed`, so a faulty and a fault-free run
 * see the same clock steps, infections and blocked-URL spikes at the same ticks.
 */
export interface ScenarioOptions {
  seed: number;
  /** Ticks after the bootstrap tick. */
  ticks: number;
  /** Ticks per simulated day; the next tick jumps to 06:00 of the following day. */
  ticksPerDay: number;
  faults: FaultRule[];
  env?: Record<string, string>;
}

export interface InvocationCounts {
  invocations: number;
  failures: number;
  /** Ticks on which every Lambda attempt failed. */
  gaveUp: number;
}

export interface ScenarioResult {
  ticks: number;
  days: number;
  sites: number;
  /** reports/** and manifests/** as key → SHA-256 of the stored bytes. */
  archive: Map<string, string>;
  manifests: Map<string, string>;
  /** Daily runs whose manifest said the day is incomplete. */
  incompleteDays: string[];
  /** MachineIDs, one per `infected` trigger naming them. */
  infectionAlerts: string[];
  /** `siteKey/day`, one per spike alert. */
  spikeAlerts: string[];
  injectedInfections: string[];
  injectedSpikes: string[];
  invocations: Record<string, InvocationCounts>;
  /** Service calls the client retried (its `retrying a service call` warnings). */
  retries: number;
  /** The same retries by what caused them. */
  retriesByReason: Record<string, number>;
  stats: EmulatorStats;
  durationMs: number;
}

/** Lambda's asynchronous invocation: the first attempt and two retries. */
const LAMBDA_ATTEMPTS = 3;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export const SCENARIO_START = '2026-03-01T06:00:00Z';

export async function runScenario(options: ScenarioOptions): Promise<ScenarioResult> {
  const started = Date.now();
  const product = await startProduct(
    { seed: options.seed, now: SCENARIO_START },
    {
      // Warnings carry the client's retries; everything else stays quiet.
      POWERTOOLS_LOG_LEVEL: 'WARN',
      ...options.env,
    },
  );
  const output: string[] = [];
  try {
    const result = await captureOutput(() => drive(product, options, started), output);
    const retries = retryReasons(output);
    return {
      ...result,
      retries: Object.values(retries).reduce((a, b) => a + b, 0),
      retriesByReason: retries,
    };
  } finally {
    await product.close();
  }
}

async function drive(
  product: Product,
  options: ScenarioOptions,
  started: number,
): Promise<ScenarioResult> {
  const { emulator } = product;
  const rand = prng(options.seed);
  const sites = emulator.info().gsms[0]?.sites ?? [];
  const candidates = sites.flatMap((s) => emulator.machineIds(s.key, 30));
  const invocations: Record<string, InvocationCounts> = {};
  const incompleteDays: string[] = [];
  const injectedInfections: string[] = [];
  const injectedSpikes: string[] = [];

  async function attempt(name: FunctionName, event: unknown) {
    const counts = invocations[name] ?? { invocations: 0, failures: 0, gaveUp: 0 };
    invocations[name] = counts;
    counts.invocations++;
    try {
      return { ok: true as const, value: await product.run(name, event, virtualContext(name)) };
    } catch (error) {
      counts.failures++;
      return { ok: false as const, error };
    }
  }

  /** One scheduled invocation with Lambda's retries of a failed asynchronous invocation. */
  async function invoke(name: FunctionName, event: unknown = {}): Promise<unknown> {
    for (let n = 1; n <= LAMBDA_ATTEMPTS; n++) {
      const outcome = await attempt(name, event);
      if (outcome.ok) return outcome.value;
      // Lambda retries after about 1 and 2 minutes; the refresher's 4-minute schedule can
      // fire in between, and only it can replace a revoked token.
      if (n < LAMBDA_ATTEMPTS && name !== 'token-refresher') await attempt('token-refresher', {});
    }
    const counts = invocations[name];
    if (counts) counts.gaveUp++;
    return undefined;
  }

  async function tick(daily: boolean, hourly: boolean): Promise<void> {
    await invoke('token-refresher');
    await invoke('infection-alerter');
    if (hourly) await invoke('blocked-url-alerter');
    if (daily) {
      const out = (await invoke('report-fetcher')) as
        | { manifests: { date: string; sites: { failed: unknown[] } }[] }
        | undefined;
      for (const m of out?.manifests ?? [])
        if (m.sites.failed.length > 0) incompleteDays.push(m.date);
    }
  }

  // Bootstrap at 06:00 with faults off: the token secret starts empty.
  await tick(true, true);
  emulator.setFaults(options.faults);
  let day = 0;
  let inDay = 0;
  for (let t = 1; t <= options.ticks; t++) {
    const before = emulator.now().getTime();
    const newDay = inDay + 1 >= options.ticksPerDay;
    if (newDay) {
      const next = Math.floor(before / DAY_MS + 1) * DAY_MS + 6 * HOUR_MS;
      emulator.advanceClock((next - before) / 1000);
      day++;
      inDay = 0;
    } else {
      emulator.advanceClock(300 + Math.floor(rand() * 601));
      inDay++;
    }
    const now = emulator.now();
    // Spikes land on the day that just ended, right when a new day starts.
    if (newDay && rand() < 0.6) {
      const site = sites[Math.floor(rand() * sites.length)];
      const yesterday = new Date(now.getTime() - DAY_MS).toISOString().slice(0, 10);
      if (site) {
        emulator.addBlockedUrls(site.id, yesterday, 3000 + Math.floor(rand() * 5000));
        injectedSpikes.push(`${site.key}/${yesterday}`);
      }
    }
    if (rand() < 0.3) {
      const count = 1 + Math.floor(rand() * 2);
      for (let i = 0; i < count && candidates.length > 0; i++) {
        const [id] = candidates.splice(Math.floor(rand() * candidates.length), 1);
        if (!id) continue;
        emulator.endpointAction(id, 'infect', `Trojan|Win32|Tick${t}`);
        injectedInfections.push(id);
      }
    }
    const hourly = newDay || Math.floor(now.getTime() / HOUR_MS) > Math.floor(before / HOUR_MS);
    await tick(newDay, hourly);
  }
  emulator.setFaults([]);
  const stats = emulator.stats();

  const alerts = await product.alerts();
  const health = await product.healthAlerts();
  return {
    ticks: options.ticks,
    days: day,
    sites: sites.length,
    archive: await archiveHashes(product, 'reports/'),
    manifests: await archiveHashes(product, 'manifests/'),
    incompleteDays,
    infectionAlerts: health
      .filter((a) => a.kind === 'infected' && a.action === 'trigger')
      .map((a) => a.machineId ?? ''),
    spikeAlerts: alerts
      .filter((a) => a.kind === 'blocked-url-spike')
      .map((a) => `${a.site}/${(a.details as { day: string }).day}`),
    injectedInfections,
    injectedSpikes,
    invocations,
    retries: 0,
    retriesByReason: {},
    stats,
    durationMs: Date.now() - started,
  };
}

/** Counts the client's retry warnings in captured log lines by the class of their reason. */
function retryReasons(output: string[]): Record<string, number> {
  const reasons: Record<string, number> = {};
  for (const line of output.join('').split('\n')) {
    if (!line.includes('retrying a service call')) continue;
    const reason = String((JSON.parse(line) as { retry?: { reason?: string } }).retry?.reason);
    const kind = /^HTTP 429/.test(reason)
      ? 'HTTP 429'
      : /^HTTP 5/.test(reason)
        ? 'HTTP 5xx'
        : /no complete answer/.test(reason)
          ? 'attempt timeout'
          : /connection failed|could not connect/.test(reason)
            ? 'connection reset'
            : reason;
    reasons[kind] = (reasons[kind] ?? 0) + 1;
  }
  return reasons;
}
