import { startDestinations } from '../test/support/notifier-receivers.js';
import { startProduct } from '../test/support/product.js';

/**
 * Time to page: from an endpoint's state change in the emulator to the PagerDuty incident at a
 * local receiver, through the real alerter, FIFO queue and notifier. The wait for the next
 * scheduled run is simulated (a change lands at a uniformly random moment of the schedule's
 * minute); everything after it is measured: the alerter's run from its start, then the queue
 * drained as Lambda's event source hands messages over, until the receiver has the incident.
 */
export interface TimeToPage {
  changes: number;
  scheduleSeconds: number;
  processingP50Ms: number;
  processingP95Ms: number;
  pageP50Ms: number;
  pageP95Ms: number;
  /** Changes that never paged (every one must). */
  missed: number;
  target: { processingP95Ms: number; pageP95Ms: number };
}

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(q * xs.length) - 1)] ?? Number.NaN;

export async function timeToPage(changes = 50, scheduleSeconds = 60): Promise<TimeToPage> {
  const product = await startProduct({ seed: 31, sitesPerGsm: 5, endpointsPerGsm: 150 });
  const to = await startDestinations(product);
  try {
    await product.run('token-refresher');
    await product.run('infection-alerter');
    await to.notify();
    const paged = () =>
      new Set(
        to.pagerduty.accepted().map((r) => (JSON.parse(r.body) as { dedup_key: string }).dedup_key),
      );
    const already = new Set([...paged()].map((id) => id.split('/').at(-1)));
    const pool = (product.emulator.info().gsms[0]?.sites ?? [])
      .flatMap((s) => product.emulator.machineIds(s.key, 30))
      .filter((id) => !already.has(id));
    // A fixed sequence, so that runs compare: the change's moment within the minute.
    let seed = 7;
    const random = () => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    const processing: number[] = [];
    const page: number[] = [];
    let missed = 0;
    for (let i = 0; i < changes; i++) {
      const id = pool[i];
      if (!id) break;
      const [action, kind] =
        i % 2 === 0
          ? (['infect', 'infected'] as const)
          : (['protection-off', 'protection-off'] as const);
      product.emulator.endpointAction(id, action);
      const waitMs = random() * scheduleSeconds * 1000;
      product.emulator.advanceClock(scheduleSeconds);
      // The refresher's own schedule: once per access-token lifetime (5 minutes).
      if (i % 5 === 4) await product.run('token-refresher');
      const started = performance.now();
      await product.run('infection-alerter');
      for (let polls = 0; !paged().has(`${kind}/${id}`) && polls < 20; polls++)
        await to.notifyDue();
      if (!paged().has(`${kind}/${id}`)) {
        missed++;
        continue;
      }
      const ms = performance.now() - started;
      processing.push(ms);
      page.push(waitMs + ms);
    }
    return {
      changes,
      scheduleSeconds,
      processingP50Ms: quantile(processing, 0.5),
      processingP95Ms: quantile(processing, 0.95),
      pageP50Ms: quantile(page, 0.5),
      pageP95Ms: quantile(page, 0.95),
      missed,
      target: { processingP95Ms: 10_000, pageP95Ms: 90_000 },
    };
  } finally {
    await to.close();
    await product.close();
  }
}
