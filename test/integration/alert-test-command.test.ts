import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { CreateSecretCommand } from '@aws-sdk/client-secrets-manager';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NotifierSecret } from '../../functions/alert-notifier/destinations.js';
import {
  DestinationNotConfiguredError,
  isTestAlertEvent,
  runTestAlertEvent,
} from '../../functions/alert-notifier/test-alert.js';
import type { HealthAlert } from '../../lib/alerts/index.js';
import { main } from '../../scripts/alerts/main.js';
import {
  PagerDutyEvent,
  SlackMessage,
  StandardWebhookHeaders,
  TeamsMessage,
} from '../support/destination-formats.js';
import { LOCAL_CREDENTIALS, type LocalAws, startLocalAws } from '../support/local-aws.js';
import { type Receiver, startReceiver } from '../support/receivers.js';
import { ROOT } from '../support/root.js';

/**
 * `npm run alerts -- test` against four real local receivers and the notifier's secret in
 * moto's Secrets Manager: what each receiver gets, what the operator reads, and that no URL or
 * key is ever printed.
 */
let aws: LocalAws;
let slack: Receiver;
let teams: Receiver;
let pagerduty: Receiver;
let webhook: Receiver;
/** Answers 400 with the request it got, as a careless proxy would: the routing key in it. */
let echo: Server;
let echoUrl: string;
const routingKey = randomBytes(16).toString('hex');
const webhookSecret = `whsec_${randomBytes(24).toString('base64')}`;
let arn: string;
let slackOnlyArn: string;
let echoArn: string;
let all: NotifierSecret;
/** Everything any command printed, for the last test's look for secrets. */
const printed: string[] = [];

async function putSecret(value: NotifierSecret): Promise<string> {
  const out = await aws.clients.secrets.send(
    new CreateSecretCommand({
      Name: `sw-notifier-test-${randomBytes(4).toString('hex')}`,
      SecretString: JSON.stringify(value),
    }),
  );
  return out.ARN ?? '';
}

async function alerts(...argv: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const status = await main(
    argv,
    { stdout: (t) => stdout.push(t), stderr: (t) => stderr.push(t) },
    { env: {}, secrets: aws.clients.secrets },
  );
  const out = { status, stdout: stdout.join(''), stderr: stderr.join('') };
  printed.push(out.stdout, out.stderr);
  return { ...out, lines: out.stdout.trimEnd().split('\n') };
}

const json = (body: string) => JSON.parse(body) as Record<string, unknown>;

beforeAll(async () => {
  aws = await startLocalAws();
  [slack, teams, pagerduty, webhook] = await Promise.all([
    startReceiver(200),
    startReceiver(202),
    startReceiver(202),
    startReceiver(204),
  ]);
  echo = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => res.writeHead(400).end(Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/v2/enqueue`;
  all = {
    slack: { url: slack.url },
    teams: { url: teams.url },
    pagerduty: { routingKey, url: pagerduty.url },
    webhook: { url: webhook.url, secret: webhookSecret },
  };
  [arn, slackOnlyArn, echoArn] = await Promise.all([
    putSecret(all),
    putSecret({ slack: { url: slack.url } }),
    putSecret({ pagerduty: { routingKey, url: echoUrl } }),
  ]);
});
beforeEach(() => {
  for (const r of [slack, teams, pagerduty, webhook]) {
    r.requests.length = 0;
    r.answer = () => (r === slack ? 200 : r === webhook ? 204 : 202);
  }
});
afterAll(async () => {
  await Promise.all([slack, teams, pagerduty, webhook].map((r) => r?.close()));
  await new Promise((resolve) => echo?.close(resolve));
});

describe('Command: npm run alerts -- test', () => {
  it('sends each destination a trigger then its resolve, marked as a test', async () => {
    const { status, lines } = await alerts('test', '--secret-arn', arn);

    expect(status).toBe(0);
    expect(lines).toEqual([
      'slack     trigger  200 delivered',
      'slack     resolve  200 delivered',
      'teams     trigger  202 delivered',
      'teams     resolve  202 delivered',
      'pagerduty trigger  202 delivered',
      'pagerduty resolve  202 delivered',
      'webhook   trigger  204 delivered',
      'webhook   resolve  204 delivered',
    ]);
    const slackTexts = slack.requests.map((r) => SlackMessage.parse(json(r.body)).text);
    expect(slackTexts).toEqual([
      expect.stringMatching(/^\[TEST\] /),
      expect.stringMatching(/^Resolved: \[TEST\] /),
    ]);
    const cards = teams.requests.map((r) => JSON.stringify(TeamsMessage.parse(json(r.body))));
    expect(cards).toEqual([
      expect.stringContaining('"text":"[TEST] '),
      expect.stringContaining('"text":"Resolved: [TEST] '),
    ]);
    const [trigger, resolve] = pagerduty.requests.map((r) => PagerDutyEvent.parse(json(r.body)));
    expect(pagerduty.requests).toHaveLength(2);
    expect(trigger).toMatchObject({
      routing_key: routingKey,
      event_action: 'trigger',
      dedup_key: expect.stringMatching(/^test\//),
      payload: { summary: expect.stringMatching(/^\[TEST\] /), custom_details: { test: true } },
    });
    expect(resolve).toEqual({
      routing_key: routingKey,
      event_action: 'resolve',
      dedup_key: trigger?.dedup_key,
    });
    // The receiver's own check, with the library a PSA tool would use.
    const hooks = webhook.requests.map(
      (r) =>
        new Webhook(webhookSecret).verify(
          r.body,
          StandardWebhookHeaders.parse(r.headers),
        ) as HealthAlert,
    );
    const id = trigger?.dedup_key;
    expect(hooks.map((h) => [h.eventId, h.action, h.test])).toEqual([
      [`${id}#1`, 'trigger', true],
      [`${id}#2`, 'resolve', true],
    ]);
    expect(webhook.requests.map((r) => r.headers['webhook-id'])).toEqual([`${id}#1`, `${id}#2`]);
  });

  it('--destination pagerduty sends only there', async () => {
    const { status, lines } = await alerts(
      'test',
      '--destination',
      'pagerduty',
      '--secret-arn',
      arn,
    );

    expect(status).toBe(0);
    expect(lines).toEqual(['pagerduty trigger  202 delivered', 'pagerduty resolve  202 delivered']);
    expect(pagerduty.requests.map((r) => PagerDutyEvent.parse(json(r.body)).event_action)).toEqual([
      'trigger',
      'resolve',
    ]);
    for (const r of [slack, teams, webhook]) expect(r.requests).toEqual([]);
  });

  it('prints a 400 as refused, still sends the resolve, and exits 1', async () => {
    pagerduty.answer = () => 400;

    const { status, lines } = await alerts('test', '--secret-arn', arn);

    expect(status).toBe(1);
    expect(lines.filter((l) => l.startsWith('pagerduty'))).toEqual([
      'pagerduty trigger  400 refused: pagerduty rejected the alert with HTTP 400: {"error":"injected"}',
      'pagerduty resolve  400 refused: pagerduty rejected the alert with HTTP 400: {"error":"injected"}',
    ]);
    // Refused: no retry mends it, so one request per event; the others took theirs.
    expect(pagerduty.requests).toHaveLength(2);
    expect(lines.filter((l) => l.endsWith(' delivered'))).toHaveLength(6);
  });

  it('names the configured destinations for one that is not, and sends nothing', async () => {
    const unknown = await alerts('test', '--destination', 'opsgenie', '--secret-arn', arn);
    const unset = await alerts('test', '--destination', 'teams', '--secret-arn', slackOnlyArn);

    expect(unknown.status).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/"opsgenie".*configured: slack, teams, pagerduty, webhook/);
    expect(unset.status).toBe(1);
    expect(unset.stderr).toMatch(/"teams".*configured: slack\n/);
    for (const r of [slack, teams, pagerduty, webhook]) expect(r.requests).toEqual([]);
  });

  it('says "not yet" with the usage for a subcommand it does not have', async () => {
    const { status, stderr } = await alerts('history', '--site', 'X');

    expect(status).toBe(2);
    expect(stderr).toMatch(/^alerts history: not yet/);
    expect(stderr).toContain('Usage: npm run alerts -- <command>');
    expect(stderr).toContain('NotifierSecretArn');
  });

  it('runs as the npm script, the secret from NOTIFIER_SECRET_ARN, its exit status kept', async () => {
    slack.answer = ({ index }) => (index === 0 ? 200 : 404);

    const run = await promisify(execFile)(
      'npm',
      ['run', '--silent', 'alerts', '--', 'test', '--destination', 'slack'],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          NOTIFIER_SECRET_ARN: arn,
          AWS_ENDPOINT_URL: aws.moto.endpoint,
          AWS_REGION: 'us-east-1',
          AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
          AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
        },
      },
    ).then(
      (ok) => ({ code: 0, ...ok }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    printed.push(run.stdout, run.stderr);

    expect(run.code).toBe(1);
    expect(run.stdout.trimEnd().split('\n')).toEqual([
      'slack     trigger  200 delivered',
      'slack     resolve  404 refused: slack rejected the alert with HTTP 404: {"error":"injected"}',
    ]);
    expect(slack.requests.map((r) => r.status)).toEqual([200, 404]);
  });

  it('never prints a URL, the routing key or the signing secret, even echoed back', async () => {
    const echoed = await alerts('test', '--secret-arn', echoArn);

    // The receiver's answer is the request, routing key and all: shown, with the key redacted.
    expect(echoed.status).toBe(1);
    expect(echoed.lines[0]).toMatch(
      /^pagerduty trigger {2}400 refused: .*"routing_key":"\[REDACTED\]"/,
    );
    const secrets = [slack.url, teams.url, pagerduty.url, webhook.url, echoUrl, routingKey];
    const hosts = secrets.slice(0, 5).map((url) => new URL(url).host);
    expect(printed.length).toBeGreaterThan(10);
    for (const text of printed)
      for (const secret of [...secrets, ...hosts, webhookSecret.slice('whsec_'.length)])
        expect(text).not.toContain(secret);
  });
});

describe('Function: runTestAlertEvent (the notifier test event)', () => {
  const options = { maxAttempts: 2, attemptTimeoutMs: 2_000, baseDelayMs: 5, maxDelayMs: 50 };

  it('sends the test alert to the destination the event names', async () => {
    const event = { skywatchTestAlert: true, destination: 'teams' };

    const outcome = await runTestAlertEvent(event, async () => all, options);

    expect(isTestAlertEvent(event)).toBe(true);
    expect(isTestAlertEvent({ Records: [] })).toBe(false);
    expect(outcome).toMatchObject({
      ok: true,
      results: [
        { destination: 'teams', action: 'trigger', outcome: 'delivered', status: 202 },
        { destination: 'teams', action: 'resolve', outcome: 'delivered', status: 202 },
      ],
    });
    expect(teams.requests).toHaveLength(2);
  });

  it('refuses a malformed event or a destination not configured, before sending', async () => {
    const secret = async () => ({ slack: { url: slack.url } });

    await expect(runTestAlertEvent({ skywatchTestAlert: 'yes' }, secret, options)).rejects.toThrow(
      /skywatchTestAlert/,
    );
    await expect(
      runTestAlertEvent({ skywatchTestAlert: true, destination: 'webhook' }, secret, options),
    ).rejects.toThrow(DestinationNotConfiguredError);
    await expect(
      runTestAlertEvent({ skywatchTestAlert: true }, async () => ({}), options),
    ).rejects.toThrow(/configures no destination/);
    expect(slack.requests).toEqual([]);
  });
});
