import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlerterHistory } from '../../functions/infection-alerter/history.js';
import { HealthAlert } from '../../lib/alerts/index.js';
import { AlertHistory, ReportStore, StorageError } from '../../lib/aws/index.js';
import { readHistory } from '../support/alert-history.js';
import { type Destinations, startDestinations } from '../support/notifier-receivers.js';
import { type Product, startProduct } from '../support/product.js';
import { quietEndpoints } from '../support/quiet-endpoints.js';

/**
 * The alert history as the alerter and the notifier write it against moto: what each run sent
 * or recorded, and what each receiver answered, one row an event.
 */
let product: Product;
let to: Destinations;
let sites: { key: string; name: string }[];
const seen = new Set<string>();

/** Rows of the objects written since the last call (one object per run: keys never repeat). */
async function newRows() {
  const { rows } = await readHistory(product.aws.clients.s3, product.res.bucket);
  const fresh = rows.filter((r) => !seen.has(r.key));
  for (const r of fresh) seen.add(r.key);
  return fresh;
}

async function runAndNotify(ids: string[], action: 'infect' | 'clean') {
  product.emulator.advanceClock(60);
  await product.run('token-refresher');
  for (const id of ids) product.emulator.endpointAction(id, action, 'Ransom|Win64|History');
  await product.run('infection-alerter');
  await to.notify();
}

/** Endpoints of a site with no open alert. */
const quiet = (site: number, n: number, skip: string[] = []) =>
  quietEndpoints(product, sites[site]?.key ?? '', { scan: 40, want: n, skip });

beforeAll(async () => {
  product = await startProduct(
    {},
    { NOTIFY_BASE_DELAY_MS: '5', NOTIFY_MAX_DELAY_MS: '50', NOTIFY_ATTEMPT_TIMEOUT_MS: '2000' },
  );
  to = await startDestinations(product);
  sites = product.emulator.info().gsms[0]?.sites ?? [];
  await product.run('token-refresher');
  await product.run('infection-alerter');
  await to.notify();
  await newRows();
}, 60_000);
afterAll(async () => {
  await to?.close();
  await product?.close();
});

describe('Alert history: rows written by the alerter and the notifier', { timeout: 60_000 }, () => {
  let target = '';

  it('records a trigger once by the alerter and once per destination by the notifier', async () => {
    [target = ''] = await quiet(1, 1);
    to.teams.answer = () => 400;
    await runAndNotify([target], 'infect');
    to.teams.answer = () => 202;
    const rows = (await newRows()).filter((r) => r.alertId === `infected/${target}`);
    const alerter = rows.filter((r) => r.key.includes('/alerter-'));
    expect(alerter.map((r) => r.event)).toEqual(['trigger']);
    expect(alerter[0]).toMatchObject({
      gsm: product.gsm,
      site: sites[1]?.key,
      siteName: sites[1]?.name,
      machineId: target,
      eventId: `infected/${target}#1`,
      seq: 1,
      action: 'trigger',
      kind: 'infected',
      route: 'default',
      destination: null,
      resolveSeconds: null,
    });
    expect(alerter[0]?.key).toMatch(
      new RegExp(`^reports/alert-events/gsm=${product.gsm}/date=\\d{4}-\\d{2}-\\d{2}/alerter-`),
    );
    const delivered = rows
      .filter((r) => r.key.includes('/notifier-'))
      .map((r) => `${r.destination} ${r.event} ${r.status}`)
      .sort();
    // Teams refused it (400): dead-lettered at once, recorded with the answer.
    expect(delivered).toEqual([
      'pagerduty delivered 202',
      'slack delivered 200',
      'teams refused 400',
      'webhook delivered 204',
    ]);
  });

  it('records the resolve with the seconds the alert stayed open', async () => {
    await runAndNotify([target], 'clean');
    const rows = (await newRows()).filter((r) => r.alertId === `infected/${target}`);
    const resolve = rows.find((r) => r.event === 'resolve');
    expect(resolve).toMatchObject({ seq: 2, action: 'resolve' });
    const trigger = Date.parse(resolve?.openedAt ?? '');
    expect(resolve?.resolveSeconds).toBeGreaterThanOrEqual(60);
    expect(Number.isFinite(trigger)).toBe(true);
    // Teams refused the trigger: its resolve is held behind it, refused too.
    expect(rows.find((r) => r.destination === 'teams')?.event).toBe('refused');
  });

  it("records an outbreak's members as grouped under the site's one alert", async () => {
    const ids = await quiet(3, 7);
    await runAndNotify(ids, 'infect');
    const rows = await newRows();
    const outbreak = `infected/site/${sites[3]?.key}/outbreak`;
    const alerter = rows.filter((r) => r.key.includes('/alerter-'));
    expect(alerter.filter((r) => r.event === 'trigger').map((r) => r.alertId)).toEqual([outbreak]);
    expect(
      alerter
        .filter((r) => r.event === 'grouped')
        .map((r) => r.machineId)
        .sort(),
    ).toEqual([...ids].sort());
    // The receivers got the outbreak alone.
    const delivered = rows.filter((r) => r.event === 'delivered');
    expect(new Set(delivered.map((r) => r.alertId))).toEqual(new Set([outbreak]));
  });
});

describe('Alert history: a write that fails', () => {
  it('is reported and resolves: the alerts it records are already out', async () => {
    const errors: unknown[] = [];
    const missing = new ReportStore(product.aws.clients.s3, 'no-such-bucket-for-history');
    const history = new AlerterHistory(
      new AlertHistory(missing, 'alerter', (error) => errors.push(error)),
    );
    const alert = HealthAlert.parse({
      schema: 'skywatch.alert/v2',
      id: 'offline/A1',
      eventId: 'offline/A1#1',
      action: 'trigger',
      kind: 'offline',
      severity: 'medium',
      gsm: product.gsm,
      consoleName: null,
      site: 'KC',
      siteName: null,
      hostName: null,
      machineId: 'A1',
      title: 't',
      summary: 's',
      occurredAt: '2026-06-14T00:00:00Z',
      openedAt: '2026-06-14T00:00:00Z',
      facts: {},
    });
    history.onDrained({ entry: { subject: 'A1', seq: 1, createdAt: '', alert }, sent: true });
    await expect(history.flush('run-1')).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(StorageError);
  });
});
