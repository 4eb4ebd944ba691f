import { createServer } from 'node:net';
import {
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
} from '@aws-sdk/client-sqs';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_ROUTING,
  type HealthAlert,
  ROUTING_SCHEMA,
  RoutingDocumentError,
} from '../../lib/alerts/index.js';
import { DeliveryQueue, RoutingParameter } from '../../lib/aws/index.js';
import type { LocalResources } from '../../scripts/local/provision.js';
import { LOCAL_CREDENTIALS, type LocalAws, startLocalAws } from '../support/local-aws.js';

let aws: LocalAws;
let res: LocalResources;
let n = 0;

beforeAll(async () => {
  aws = await startLocalAws();
  res = await aws.provision();
});
afterAll(async () => aws?.moto.stop());

const ALERT: HealthAlert = {
  schema: 'skywatch.alert/v2',
  id: 'infected/A1B2',
  eventId: 'infected/A1B2#1',
  action: 'trigger',
  kind: 'infected',
  severity: 'critical',
  gsm: 'G',
  consoleName: 'Console',
  site: 'ACME',
  siteName: 'Acme Dental',
  hostName: 'HOST',
  machineId: 'A1B2',
  title: 't',
  summary: 's',
  occurredAt: '2026-06-15T12:00:00Z',
  openedAt: '2026-06-15T12:00:00Z',
  facts: {},
};
const MSP = {
  schema: ROUTING_SCHEMA,
  routes: [
    {
      name: 'acme',
      match: { site: ['ACME'] },
      destinations: ['acme-slack', 'psa'],
      fields: { psaCompanyId: 42 },
    },
    { name: 'lab', match: { site: ['LAB'] }, destinations: [] },
  ],
  default: { destinations: ['slack'] },
};

/** A fresh parameter holding `value`, so tests never share a cache or a document. */
async function parameter(value: string): Promise<string> {
  const name = `/sw-test/routing-${++n}-${Date.now()}`;
  await put(name, value);
  return name;
}
const put = (name: string, value: string) =>
  aws.clients.ssm.send(
    new PutParameterCommand({ Name: name, Value: value, Type: 'String', Overwrite: true }),
  );

/** An SSM client that counts its calls. */
function countingSsm(endpoint = aws.moto.endpoint) {
  const ssm = new SSMClient({
    endpoint,
    region: 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: 1,
  });
  const calls = { n: 0 };
  ssm.middlewareStack.add(
    (next) => async (args) => {
      calls.n++;
      return next(args);
    },
    { step: 'initialize' },
  );
  return { ssm, calls };
}

async function receiveAll(url: string): Promise<Message[]> {
  const all: Message[] = [];
  for (;;) {
    const out = await aws.clients.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: url,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 0,
        MessageSystemAttributeNames: ['MessageGroupId'],
      }),
    );
    const got = out.Messages ?? [];
    if (got.length === 0) return all;
    all.push(...got);
    await aws.clients.sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: url,
        Entries: got.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle ?? '' })),
      }),
    );
  }
}

describe('Class: RoutingParameter', () => {
  it('routes by the document in SSM', async () => {
    const { ssm } = countingSsm();
    const router = new RoutingParameter(ssm, await parameter(JSON.stringify(MSP)));
    expect(await router.route(ALERT)).toEqual({
      route: 'acme',
      destinations: ['acme-slack', 'psa'],
      fields: { psaCompanyId: 42 },
    });
    expect(await router.route({ ...ALERT, site: 'LAB', siteName: null })).toEqual({
      route: 'lab',
      destinations: [],
      fields: {},
    });
    expect((await router.route({ ...ALERT, site: 'OTHER', siteName: null })).route).toBe('default');
  });

  it('keeps a read for maxAge, and follows an edit once it is over', async () => {
    const name = await parameter(JSON.stringify(MSP));
    const { ssm, calls } = countingSsm();
    const cached = new RoutingParameter(ssm, name, { maxAgeSeconds: 600 });
    const fresh = new RoutingParameter(ssm, name, { maxAgeSeconds: 0 });
    expect((await cached.route(ALERT)).route).toBe('acme');
    expect((await fresh.route(ALERT)).route).toBe('acme');
    const edited = { ...MSP, routes: [{ ...MSP.routes[0], destinations: ['pagerduty'] }] };
    await put(name, JSON.stringify(edited));
    expect((await cached.route(ALERT)).destinations).toEqual(['acme-slack', 'psa']);
    expect((await fresh.route(ALERT)).destinations).toEqual(['pagerduty']);
    // Two reads by the fresh one, one by the cached one.
    expect(calls.n).toBe(3);
  });

  it('falls back to the default destinations on an invalid document, saying why once', async () => {
    const bad = { ...MSP, routes: [{ ...MSP.routes[0], match: { kind: ['infectd'] } }] };
    const { ssm, calls } = countingSsm();
    const fallbacks: unknown[] = [];
    const router = new RoutingParameter(ssm, await parameter(JSON.stringify(bad)), {
      onFallback: (error) => fallbacks.push(error),
    });
    for (let i = 0; i < 5; i++) expect(await router.route(ALERT)).toEqual(routeDefault());
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]).toBeInstanceOf(RoutingDocumentError);
    expect((fallbacks[0] as RoutingDocumentError).problems.map((p) => p.path)).toEqual([
      'routes[0].match.kind[0]',
    ]);
    expect(calls.n).toBe(1);
  });

  it('falls back when the text is not JSON, or there is no such parameter', async () => {
    for (const name of [await parameter('{"schema":'), '/sw-test/no-such-parameter']) {
      const fallbacks: unknown[] = [];
      const router = new RoutingParameter(countingSsm().ssm, name, {
        onFallback: (error) => fallbacks.push(error),
      });
      expect(await router.route(ALERT)).toEqual(routeDefault());
      expect(fallbacks).toHaveLength(1);
    }
  });

  it('falls back when SSM cannot be reached, asking once per maxAge', async () => {
    // A port that refuses connections: bound, then closed.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const { ssm, calls } = countingSsm(`http://127.0.0.1:${port}`);
    const fallbacks: unknown[] = [];
    const router = new RoutingParameter(ssm, '/sw-test/unreachable', {
      onFallback: (error) => fallbacks.push(error),
    });
    for (let i = 0; i < 3; i++) expect(await router.route(ALERT)).toEqual(routeDefault());
    expect(fallbacks).toHaveLength(1);
    expect(calls.n).toBe(1);
  });
});

const routeDefault = () => ({
  route: 'default',
  destinations: DEFAULT_ROUTING.default.destinations,
  fields: {},
});

describe('Class: DeliveryQueue (routed)', () => {
  it("queues one v2 message per routed destination, in each destination's group, with the route", async () => {
    const { ssm } = countingSsm();
    const router = new RoutingParameter(ssm, await parameter(JSON.stringify(MSP)));
    const queue = new DeliveryQueue(aws.clients.sqs, res.notifierQueueUrl, router);
    const used = await queue.enqueue(ALERT);
    expect(used.route).toBe('acme');
    const got = await receiveAll(res.notifierQueueUrl);
    expect(got.map((m) => m.Attributes?.MessageGroupId).sort()).toEqual([
      'acme-slack:infected/A1B2',
      'psa:infected/A1B2',
    ]);
    expect(got.map((m) => JSON.parse(m.Body ?? '{}'))).toContainEqual({
      schema: 'skywatch.delivery/v2',
      destination: 'psa',
      route: { name: 'acme', fields: { psaCompanyId: 42 } },
      alert: ALERT,
    });
  });

  it('queues nothing for a route without destinations, and uses the routing it is given', async () => {
    const { ssm } = countingSsm();
    const router = new RoutingParameter(ssm, await parameter(JSON.stringify(MSP)));
    const queue = new DeliveryQueue(aws.clients.sqs, res.notifierQueueUrl, router);
    const lab = { ...ALERT, id: 'infected/L', eventId: 'infected/L#1', site: 'LAB' };
    expect((await queue.enqueue(lab)).destinations).toEqual([]);
    expect(await receiveAll(res.notifierQueueUrl)).toEqual([]);
    // A resolve passes its trigger's routing: the document's answer does not matter.
    const resolve = { ...lab, eventId: 'infected/L#2', action: 'resolve' as const };
    const trigger = { route: 'old', destinations: ['teams'], fields: { was: true } };
    expect(await queue.enqueue(resolve, trigger)).toEqual(trigger);
    const [message] = await receiveAll(res.notifierQueueUrl);
    expect(JSON.parse(message?.Body ?? '{}')).toMatchObject({
      destination: 'teams',
      route: { name: 'old', fields: { was: true } },
    });
  });
});
