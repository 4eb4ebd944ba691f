import { inspect } from 'node:util';
import { SubscribeCommand } from '@aws-sdk/client-sns';
import { CreateQueueCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthAlert } from '../../lib/alerts/index.js';
import {
  AlertPublisher,
  CredentialsSecretSchema,
  SecretError,
  SecretStore,
  SecretTokenSource,
  snsSubject,
  TokenSecretSchema,
} from '../../lib/aws/index.js';
import { drainAlerts, type LocalResources, queueArn } from '../../scripts/local/provision.js';
import { type LocalAws, startLocalAws } from '../support/local-aws.js';

let aws: LocalAws;
let res: LocalResources;
const PASSWORD = 'pa55-word-that-must-never-leak';

beforeAll(async () => {
  aws = await startLocalAws();
  res = await aws.provision({
    clientId: 'id',
    clientSecret: 'secret-xyz',
    username: 'u@example.com',
    password: PASSWORD,
  });
});
afterAll(async () => aws?.moto.stop());

describe('Class: SecretStore', () => {
  it('reads and validates the credentials secret, then serves it from memory', async () => {
    let now = 1_000_000;
    const store = new SecretStore(aws.clients.secrets, () => now);
    const creds = await store.read(res.credentialsSecretArn, CredentialsSecretSchema);
    expect(creds).toMatchObject({ clientId: 'id', clientAuth: 'basic', password: PASSWORD });
    await aws.clients.secrets.send(
      new (await import('@aws-sdk/client-secrets-manager')).PutSecretValueCommand({
        SecretId: res.credentialsSecretArn,
        SecretString: JSON.stringify({ clientId: 'changed', clientSecret: 's' }),
      }),
    );
    expect((await store.read(res.credentialsSecretArn, CredentialsSecretSchema)).clientId).toBe(
      'id',
    );
    now += 301_000;
    expect((await store.read(res.credentialsSecretArn, CredentialsSecretSchema)).clientId).toBe(
      'changed',
    );
  });

  it('never caches a token past its own expiry', async () => {
    let now = Date.parse('2026-06-15T12:00:00Z');
    const store = new SecretStore(aws.clients.secrets, () => now);
    const token = {
      accessToken: 'a1',
      refreshToken: 'r1',
      expiresAt: '2026-06-15T12:01:00Z',
      scopes: ['SkyStatus.GSM'],
      issuedAt: '2026-06-15T11:56:00Z',
    };
    await store.write(res.tokenSecretArn, token);
    const read = () =>
      store.read(res.tokenSecretArn, TokenSecretSchema, {
        expiresAt: (t) => Date.parse(t.expiresAt),
      });
    store.invalidate(res.tokenSecretArn);
    expect((await read()).accessToken).toBe('a1');
    await new SecretStore(aws.clients.secrets).write(res.tokenSecretArn, {
      ...token,
      accessToken: 'a2',
    });
    now += 30_000;
    expect((await read()).accessToken).toBe('a1');
    now += 31_000;
    expect((await read()).accessToken).toBe('a2');
  });

  it('names the bad fields of a malformed secret without echoing its values', async () => {
    const store = new SecretStore(aws.clients.secrets);
    const error = await store
      .read(res.tokenSecretArn, CredentialsSecretSchema)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretError);
    expect(String((error as Error).message)).toMatch(/clientId/);
    const creds = await store
      .read(res.credentialsSecretArn, TokenSecretSchema)
      .catch((e: unknown) => e);
    expect(inspect(creds, { depth: 8 })).not.toContain('changed');
  });
});

describe('Class: SecretTokenSource', () => {
  const pair = (accessToken: string, expiresAt: string) => ({
    accessToken,
    refreshToken: `r-${accessToken}`,
    expiresAt,
    scopes: ['SkyStatus.GSM'],
    issuedAt: '2026-06-15T11:55:00Z',
  });

  it('waits for the refresher to replace a rejected token, then hands out the new one', async () => {
    const writer = new SecretStore(aws.clients.secrets);
    await writer.write(res.tokenSecretArn, pair('old-token-1', '2099-01-01T00:00:00Z'));
    const source = new SecretTokenSource(new SecretStore(aws.clients.secrets), res.tokenSecretArn, {
      awaitFreshMs: 5_000,
      pollMs: 50,
    });
    expect((await source.getToken()).value).toBe('old-token-1');
    source.invalidate('old-token-1');
    setTimeout(
      () => void writer.write(res.tokenSecretArn, pair('new-token-2', '2099-01-01T00:00:00Z')),
      300,
    );
    const started = Date.now();
    expect((await source.getToken()).value).toBe('new-token-2');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('gives up waiting after awaitFreshMs and lets the service decide', async () => {
    await new SecretStore(aws.clients.secrets).write(
      res.tokenSecretArn,
      pair('stale-token-3', '2000-01-01T00:00:00Z'),
    );
    const source = new SecretTokenSource(new SecretStore(aws.clients.secrets), res.tokenSecretArn, {
      awaitFreshMs: 200,
      pollMs: 50,
    });
    const started = Date.now();
    expect((await source.getToken()).value).toBe('stale-token-3');
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });

  it("stops waiting for the refresher at the caller's deadline", async () => {
    await new SecretStore(aws.clients.secrets).write(
      res.tokenSecretArn,
      pair('stale-token-4', '2000-01-01T00:00:00Z'),
    );
    const source = new SecretTokenSource(new SecretStore(aws.clients.secrets), res.tokenSecretArn, {
      awaitFreshMs: 600_000,
      pollMs: 50,
    });
    // Without the deadline this would poll for ten minutes and the test would time out.
    expect((await source.getToken({ maxWaitMs: 200 })).value).toBe('stale-token-4');
  });
});

describe('Class: AlertPublisher', () => {
  it('publishes a JSON body with filterable attributes to subscribers', async () => {
    const publisher = new AlertPublisher(aws.clients.sns, res.topicArn);
    await publisher.publish({
      kind: 'blocked-url-spike',
      severity: 'high',
      gsm: 'AAAA-BBBB-CCCC-DDDD-EEEE',
      site: 'SITE-SITE-SITE-SITE-SITE',
      subject: 'Blocked URLs — 4200 at SITE-1',
      summary: 'SITE-1 blocked 4200 URLs yesterday, 10 times its baseline.',
      occurredAt: '2026-06-15T12:00:00Z',
      details: { count: 4200 },
    });
    const [alert] = await drainAlerts(aws.clients, res.alertQueueUrl);
    expect(alert).toMatchObject({
      schema: 'skywatch.alert/v1',
      kind: 'blocked-url-spike',
      subject: 'Blocked URLs — 4200 at SITE-1',
      snsSubject: 'Blocked URLs ? 4200 at SITE-1',
      details: { count: 4200 },
    });
    expect(alert?.attributes).toMatchObject({
      kind: { Value: 'blocked-url-spike' },
      severity: { Value: 'high' },
      site: { Value: 'SITE-SITE-SITE-SITE-SITE' },
    });
  });

  it("lets a customer's own subscription filter health alerts on their route", async () => {
    // A customer's own e-mail list, subscribed with a filter policy on the route's name.
    const { QueueUrl: own = '' } = await aws.clients.sqs.send(
      new CreateQueueCommand({ QueueName: 'acme-email' }),
    );
    await aws.clients.sns.send(
      new SubscribeCommand({
        TopicArn: res.topicArn,
        Protocol: 'sqs',
        Endpoint: await queueArn(aws.clients, own),
        Attributes: { FilterPolicy: JSON.stringify({ route: ['acme'] }) },
      }),
    );
    const publisher = new AlertPublisher(aws.clients.sns, res.topicArn);
    const alert = (site: string): HealthAlert => ({
      schema: 'skywatch.alert/v2',
      id: `infected/${site}`,
      eventId: `infected/${site}#1`,
      action: 'trigger',
      kind: 'infected',
      severity: 'critical',
      gsm: 'G',
      consoleName: 'Console',
      site,
      siteName: site,
      hostName: 'HOST',
      machineId: site,
      title: `Infected at ${site}`,
      summary: 's',
      occurredAt: '2026-06-15T12:00:00Z',
      openedAt: '2026-06-15T12:00:00Z',
      facts: {},
    });
    const routed = (route: string) => ({ route, destinations: [], fields: {} });
    await publisher.publishHealth(alert('ACME'), routed('acme'));
    await publisher.publishHealth(alert('LAB'), routed('default'));
    await publisher.publishHealth(alert('OLD'));

    const ownGot = await drainAlerts(aws.clients, own);
    expect(ownGot.map((m) => m.id)).toEqual(['infected/ACME#1']);
    expect(ownGot[0]?.attributes).toMatchObject({ route: { Value: 'acme' } });
    // The topic's unfiltered subscription still gets every alert, routed or not.
    const all = await drainAlerts(aws.clients, res.alertQueueUrl);
    expect(all.map((m) => m.id).sort()).toEqual([
      'infected/ACME#1',
      'infected/LAB#1',
      'infected/OLD#1',
    ]);
  });

  it('keeps subjects to one ASCII line of at most 100 characters', () => {
    expect(snsSubject('x'.repeat(150))).toHaveLength(100);
    expect(snsSubject('a\nb é')).toBe('a?b ?');
  });
});
