import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthAlert } from '../../lib/alerts/index.js';
import {
  PagerDutyEvent,
  SlackMessage,
  StandardWebhookHeaders,
  TeamsMessage,
} from '../support/destination-formats.js';
import { type Destinations, startDestinations } from '../support/notifier-receivers.js';
import { type Product, startProduct } from '../support/product.js';
import { quietEndpoints } from '../support/quiet-endpoints.js';
import type { Receiver } from '../support/receivers.js';

/**
 * Outbreaks as a technician receives them: the alerter, its FIFO queue, the notifier and four
 * real local receivers. Fifteen endpoints of one site infected at once are one incident; three
 * are three. Counted at each receiver, not at what the alerter published.
 */
let product: Product;
let to: Destinations;
let sites: { key: string; name: string }[];

const json = (body: string) => JSON.parse(body) as Record<string, unknown>;
const receivers = () => [to.slack, to.teams, to.pagerduty, to.webhook];

/** One alerter run after the endpoints changed, then the notifier until its queue is empty. */
async function runAndNotify(ids: string[], action: 'infect' | 'clean') {
  product.emulator.advanceClock(60);
  // Time passes on the service; the refresher keeps the access token valid meanwhile.
  await product.run('token-refresher');
  for (const id of ids) product.emulator.endpointAction(id, action, 'Ransom|Win64|Outbreak');
  await product.run('infection-alerter');
  await to.notify();
}

/** What each receiver took since the last call, and the SNS events. */
async function received() {
  const take = (r: Receiver) => r.accepted().map((x) => ({ body: x.body, headers: x.headers }));
  const got = {
    slack: take(to.slack),
    teams: take(to.teams),
    pagerduty: take(to.pagerduty),
    webhook: take(to.webhook),
    sns: await product.healthAlerts(),
  };
  for (const r of receivers()) r.requests.length = 0;
  return got;
}

/** Endpoints of a site with no open alert: infecting them is their one transition. */
const quiet = (site: number, n: number) =>
  quietEndpoints(product, sites[site]?.key ?? '', { scan: 30, want: n });

beforeAll(async () => {
  product = await startProduct(
    {},
    { NOTIFY_BASE_DELAY_MS: '5', NOTIFY_MAX_DELAY_MS: '50', NOTIFY_ATTEMPT_TIMEOUT_MS: '2000' },
  );
  to = await startDestinations(product);
  sites = product.emulator.info().gsms[0]?.sites ?? [];
  await product.run('token-refresher');
  // What the data starts with is alerted by the first run; the tests turn other endpoints.
  await product.run('infection-alerter');
  await to.notify();
  await received();
}, 60_000);
afterAll(async () => {
  await to?.close();
  await product?.close();
});

describe('Function: infection-alerter, outbreaks at the receivers', { timeout: 60_000 }, () => {
  let ids: string[];
  let late: string;
  const id = () => `infected/site/${sites[2]?.key}/outbreak`;

  it('turns 15 endpoints of one site infected at once into one incident and one message each', async () => {
    [late = '', ...ids] = await quiet(2, 16);
    expect(ids).toHaveLength(15);
    await runAndNotify(ids, 'infect');
    const got = await received();

    const pd = got.pagerduty.map((r) => PagerDutyEvent.parse(json(r.body)));
    expect(pd.map((e) => `${e.event_action} ${e.dedup_key}`)).toEqual([`trigger ${id()}`]);
    const title = `Outbreak: 15 endpoints infected at ${sites[2]?.name}`;
    expect(pd[0]?.event_action === 'trigger' && pd[0].payload.summary).toBe(title);

    expect(got.slack).toHaveLength(1);
    const slack = SlackMessage.parse(json(got.slack[0]?.body ?? '{}'));
    expect(slack.text).toBe(title);
    expect(got.teams).toHaveLength(1);
    TeamsMessage.parse(json(got.teams[0]?.body ?? '{}'));
    expect(got.webhook).toHaveLength(1);
    const hook = got.webhook[0];
    const headers = StandardWebhookHeaders.parse(hook?.headers);
    const alert = new Webhook(to.webhookSecret).verify(hook?.body ?? '', headers) as HealthAlert;
    expect(alert).toMatchObject({ id: id(), action: 'trigger', machineId: null });
    expect(alert.facts.endpoints).toBe(15);
    // Each destination lists the endpoints: all fifteen fit under the list's cap of 20.
    for (const r of [...got.slack, ...got.teams, ...got.pagerduty, ...got.webhook])
      for (const machine of ids) expect(r.body).toContain(machine);
    // No endpoint's own alert reached anyone.
    for (const r of [...got.slack, ...got.teams, ...got.pagerduty, ...got.webhook])
      for (const machine of ids) expect(r.body).not.toContain(`infected/${machine}`);
    expect(got.sns.map((a) => `${a.action} ${a.id}`)).toEqual([`trigger ${id()}`]);
  });

  it('sends nothing for a sixteenth endpoint infected while it is open', async () => {
    await runAndNotify([late], 'infect');
    const got = await received();
    for (const name of ['slack', 'teams', 'pagerduty', 'webhook'] as const)
      expect(got[name]).toEqual([]);
    expect(got.sns).toEqual([]);
  });

  it('resolves it once, when the last of them is cleaned, naming all sixteen', async () => {
    await runAndNotify(ids, 'clean');
    expect((await received()).sns).toEqual([]);
    await runAndNotify([late], 'clean');
    const got = await received();
    const pd = got.pagerduty.map((r) => PagerDutyEvent.parse(json(r.body)));
    expect(pd.map((e) => `${e.event_action} ${e.dedup_key}`)).toEqual([`resolve ${id()}`]);
    expect(got.slack).toHaveLength(1);
    expect(got.teams).toHaveLength(1);
    expect(got.webhook.map((r) => r.headers['webhook-id'])).toEqual([`${id()}#2`]);
    const alert = json(got.webhook[0]?.body ?? '{}') as HealthAlert;
    expect(alert).toMatchObject({ action: 'resolve', facts: { endpoints: 16 } });
    for (const r of [...got.slack, ...got.teams, ...got.webhook])
      for (const machine of [...ids, late]) expect(r.body).not.toContain(`infected/${machine}`);
    expect(got.sns.map((a) => `${a.action} ${a.id}`)).toEqual([`resolve ${id()}`]);
  });

  it('alerts three endpoints infected at once, under the threshold, each on its own', async () => {
    const three = await quiet(3, 3);
    await runAndNotify(three, 'infect');
    let got = await received();
    const own = three.map((m) => `infected/${m}`).sort();
    const keys = (g: typeof got) =>
      g.pagerduty
        .map((r) => PagerDutyEvent.parse(json(r.body)))
        .map((e) => `${e.event_action} ${e.dedup_key}`)
        .sort();
    expect(keys(got)).toEqual(own.map((k) => `trigger ${k}`));
    for (const name of ['slack', 'teams', 'webhook'] as const) expect(got[name]).toHaveLength(3);

    await runAndNotify(three, 'clean');
    got = await received();
    expect(keys(got)).toEqual(own.map((k) => `resolve ${k}`));
    for (const name of ['slack', 'teams', 'webhook'] as const) expect(got[name]).toHaveLength(3);
  });
});
