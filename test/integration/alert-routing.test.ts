import { randomBytes } from 'node:crypto';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { PutSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { PutParameterCommand } from '@aws-sdk/client-ssm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryGroup, type HealthAlert, ROUTING_SCHEMA } from '../../lib/alerts/index.js';
import { PagerDutyEvent, SlackMessage } from '../support/destination-formats.js';
import { type Destinations, startDestinations } from '../support/notifier-receivers.js';
import { type Product, startProduct } from '../support/product.js';
import { type Receiver, startReceiver } from '../support/receivers.js';

/**
 * Routing end to end: the alerter routes each event as it queues it (SSM parameter in moto),
 * the notifier posts to the named destinations of its secret (real local receivers). What
 * each receiver got is what is checked, per problem, across routing edits.
 */
let product: Product;
let to: Destinations;
let acme: Receiver;
let psa: Receiver;
const psaSecret = `whsec_${randomBytes(24).toString('base64')}`;
let sites: { key: string; name: string }[];

/** The clock moves on between steps: a fresh token first, as the refresher's schedule gives. */
const run = async () => {
  await product.run('token-refresher');
  await product.run('infection-alerter');
};
const machines = (site: number) => product.emulator.machineIds(sites[site]?.key ?? '', 40);
const all = () => ({
  slack: to.slack,
  teams: to.teams,
  pagerduty: to.pagerduty,
  webhook: to.webhook,
  acme,
  psa,
});
/** Who accepted what of this alert: `acme trigger`, `pagerduty resolve`… */
function received(alertId: string): string[] {
  const out: string[] = [];
  for (const [name, r] of Object.entries(all()))
    for (const request of r.accepted())
      if (request.body.includes(alertId)) out.push(`${name} ${actionOf(request.body)}`);
  return out.sort();
}
function actionOf(body: string): string {
  const b = JSON.parse(body) as Record<string, unknown>;
  if (typeof b.event_action === 'string') return b.event_action;
  if (typeof b.action === 'string') return b.action;
  return /Resolved/.test(body) ? 'resolve' : 'trigger';
}

async function putRouting(document: unknown) {
  await product.aws.clients.ssm.send(
    new PutParameterCommand({
      Name: product.res.routingParameter,
      Value: typeof document === 'string' ? document : JSON.stringify(document),
      Type: 'String',
      Overwrite: true,
    }),
  );
}

const routing = (acmeTo: string[], extra: unknown[] = []) => ({
  schema: ROUTING_SCHEMA,
  routes: [
    // By the site's name: the operator's words, not the keycode.
    {
      name: 'acme',
      match: { site: [sites[1]?.name] },
      destinations: acmeTo,
      fields: { psaCompanyId: 42 },
    },
    ...extra,
  ],
  default: { destinations: ['slack', 'teams', 'pagerduty', 'webhook'] },
});
const quiet = () => ({ name: 'quiet', match: { site: [sites[2]?.key] }, destinations: [] });

beforeAll(async () => {
  // A read of the routing document is used for no time at all: each run sees the last edit.
  product = await startProduct(
    {},
    {
      ALERT_ROUTING_MAX_AGE_SECONDS: '0',
      NOTIFY_BASE_DELAY_MS: '5',
      NOTIFY_MAX_DELAY_MS: '50',
    },
  );
  to = await startDestinations(product);
  [acme, psa] = await Promise.all([startReceiver(200), startReceiver(204)]);
  await product.aws.clients.secrets.send(
    new PutSecretValueCommand({
      SecretId: product.res.notifierSecretArn,
      SecretString: JSON.stringify({
        slack: { url: to.slack.url },
        teams: { url: to.teams.url },
        pagerduty: { routingKey: to.routingKey, url: to.pagerduty.url },
        webhook: { url: to.webhook.url, secret: to.webhookSecret },
        destinations: {
          'acme-slack': { type: 'slack', url: acme.url },
          psa: { type: 'webhook', url: psa.url, secret: psaSecret },
        },
      }),
    }),
  );
  sites = product.emulator.info().gsms[0]?.sites ?? [];
  await product.run('token-refresher');
  await run();
  await to.notify();
  await product.healthAlerts();
  await putRouting(routing(['acme-slack', 'psa'], [quiet()]));
});
afterAll(async () => {
  await Promise.all([acme?.close(), psa?.close(), to?.close()]);
  await product?.close();
});

describe('Alert routing: alerter → SQS → notifier → named destinations', () => {
  it("sends a customer's alerts to its own destinations, the webhook carrying the route", async () => {
    const id = machines(1)[12] ?? '';
    product.emulator.endpointAction(id, 'uninstall');
    await run();
    await to.notify();
    expect(received(`uninstalled/${id}`)).toEqual(['acme trigger', 'psa trigger']);
    expect(SlackMessage.parse(JSON.parse(acme.accepted()[0]?.body ?? '{}')).text).toMatch(
      /^Agent uninstalled/,
    );
    const hook = psa.accepted()[0];
    // Signed with the PSA's own secret, the route's name and fields beside the alert.
    const body = new Webhook(psaSecret).verify(hook?.body ?? '', hook?.headers as never) as
      | (HealthAlert & { route: unknown })
      | undefined;
    expect(body).toMatchObject({
      id: `uninstalled/${id}`,
      site: sites[1]?.key,
      route: { name: 'acme', fields: { psaCompanyId: 42 } },
    });
  });

  it('sends a site routed nowhere to no destination; the topic still has it', async () => {
    const id = machines(2)[12] ?? '';
    product.emulator.endpointAction(id, 'uninstall');
    await run();
    await to.notify();
    expect(received(`uninstalled/${id}`)).toEqual([]);
    const topic = (await product.healthAlerts()).map((a) => `${a.action} ${a.id}`);
    expect(topic).toContain(`trigger uninstalled/${id}`);
  });

  it('sends each resolve where its trigger went, whatever the routing says by then', async () => {
    // The customer moves to PagerDuty, the quiet site back to the default.
    await putRouting(routing(['pagerduty']));
    const [a, b] = [machines(1)[12] ?? '', machines(2)[12] ?? ''];
    const next = machines(1)[13] ?? '';
    product.emulator.advanceClock(60);
    product.emulator.endpointAction(a, 'reinstall');
    product.emulator.endpointAction(b, 'reinstall');
    product.emulator.endpointAction(next, 'uninstall');
    await run();
    await to.notify();
    expect(received(`uninstalled/${a}`)).toEqual([
      'acme resolve',
      'acme trigger',
      'psa resolve',
      'psa trigger',
    ]);
    // Its trigger went nowhere: so does its resolve, though the site now routes by default.
    expect(received(`uninstalled/${b}`)).toEqual([]);
    // A new problem follows the new routing.
    expect(received(`uninstalled/${next}`)).toEqual(['pagerduty trigger']);
    const page = PagerDutyEvent.parse(JSON.parse(to.pagerduty.accepted().at(-1)?.body ?? '{}'));
    expect(page).toMatchObject({ event_action: 'trigger', dedup_key: `uninstalled/${next}` });
  });

  it('routes afresh the resolve of a record written before routing', async () => {
    const id = machines(3)[12] ?? '';
    product.emulator.advanceClock(60);
    product.emulator.endpointAction(id, 'uninstall');
    await run();
    await to.notify();
    expect(received(`uninstalled/${id}`)).toEqual([
      'pagerduty trigger',
      'slack trigger',
      'teams trigger',
      'webhook trigger',
    ]);
    // As an alerter before this change left it: no routing in the record.
    const key = `state/health/${encodeURIComponent(product.gsm)}/subjects/${encodeURIComponent(id)}.json`;
    const { s3 } = product.aws.clients;
    const out = await s3.send(new GetObjectCommand({ Bucket: product.res.bucket, Key: key }));
    const record = JSON.parse((await out.Body?.transformToString()) ?? '{}');
    expect(record.alerts.uninstalled.routing.route).toBe('default');
    delete record.alerts.uninstalled.routing;
    await s3.send(
      new PutObjectCommand({ Bucket: product.res.bucket, Key: key, Body: JSON.stringify(record) }),
    );
    await putRouting(
      routing(
        ['pagerduty'],
        [{ name: 'c', match: { site: [sites[3]?.key] }, destinations: ['teams'] }],
      ),
    );
    product.emulator.advanceClock(60);
    product.emulator.endpointAction(id, 'reinstall');
    await run();
    await to.notify();
    expect(received(`uninstalled/${id}`)).toEqual([
      'pagerduty trigger',
      'slack trigger',
      'teams resolve',
      'teams trigger',
      'webhook trigger',
    ]);
  });

  it('sends to the default destinations while the document is invalid, losing nothing', async () => {
    await putRouting({ ...routing(['acme-slack']), routes: [{ name: 'Acme', match: {} }] });
    const id = machines(1)[14] ?? '';
    product.emulator.advanceClock(60);
    product.emulator.endpointAction(id, 'uninstall');
    await run();
    await to.notify();
    expect(received(`uninstalled/${id}`)).toEqual([
      'pagerduty trigger',
      'slack trigger',
      'teams trigger',
      'webhook trigger',
    ]);
    await putRouting('not json');
    product.emulator.advanceClock(60);
    product.emulator.endpointAction(id, 'reinstall');
    await run();
    await to.notify();
    expect(received(`uninstalled/${id}`).filter((r) => r.endsWith('resolve'))).toEqual([
      'pagerduty resolve',
      'slack resolve',
      'teams resolve',
      'webhook resolve',
    ]);
    await putRouting(routing(['acme-slack', 'psa']));
  });

  it('still delivers a v1 message in flight, and drops one for a name the secret lacks', async () => {
    const at = new Date().toISOString();
    const alert: HealthAlert = {
      schema: 'skywatch.alert/v2',
      id: 'offline/INFLIGHT',
      eventId: 'offline/INFLIGHT#1',
      action: 'trigger',
      kind: 'offline',
      severity: 'medium',
      gsm: product.gsm,
      consoleName: 'Console',
      site: 'S',
      siteName: 'Site',
      hostName: 'H',
      machineId: 'INFLIGHT',
      title: 'Not seen: H at Site',
      summary: 'Not seen.',
      occurredAt: at,
      openedAt: at,
      facts: {},
    };
    const send = (destination: string, body: unknown) =>
      product.aws.clients.sqs.send(
        new SendMessageCommand({
          QueueUrl: product.res.notifierQueueUrl,
          MessageBody: JSON.stringify(body),
          MessageGroupId: deliveryGroup(destination, alert.id),
          MessageDeduplicationId: randomBytes(8).toString('hex'),
        }),
      );
    await send('webhook', { schema: 'skywatch.delivery/v1', destination: 'webhook', alert });
    await send('nobody', {
      schema: 'skywatch.delivery/v2',
      destination: 'nobody',
      route: { name: 'default', fields: {} },
      alert,
    });
    await to.notify();
    expect(received('offline/INFLIGHT')).toEqual(['webhook trigger']);
    // From before routing: the alert alone, as receivers had it then.
    expect(JSON.parse(to.webhook.accepted().at(-1)?.body ?? '{}')).toEqual(alert);
    expect(await to.deadLetters()).toEqual([]);
  });
});
