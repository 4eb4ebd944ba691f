import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { PutSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateSigningSecret } from '../../lib/webhooks/index.js';
import type { FunctionName } from '../../scripts/local/functions.js';
import { type Product, startProduct } from '../support/product.js';
import { signed } from '../support/webhook-signing.js';
import { captureOutput } from './support/capture.js';
import { virtualContext } from './support/virtual-time.js';

// Back-offs and each Retry-After are the client's own decisions; they are honoured on a virtual
// clock instead of waited out (support/virtual-time.ts). One instance serves the mock and this
// file, whatever vi.resetModules does later.
const virtualTime = await vi.hoisted(() => import('./support/virtual-time.js'));
vi.mock('../../lib/http/clock.js', () => virtualTime);

/**
 * Every function, in success and in failure, with known secret values; everything they write to
 * stdout/stderr, every error they throw (rendered the four ways loggers and people render
 * errors), every return value and every alert is then searched for those values.
 */
const unique = (prefix: string) => `${prefix}-${randomBytes(12).toString('hex')}`;
const CLIENT_ID = 'skywatch-reliability';
const CLIENT_SECRET = unique('client-secret');
const USERNAME = 'secrets@example.com';
const PASSWORD = unique('password');
const WRONG_PASSWORD = unique('wrong-password');
const WRONG_CLIENT_SECRET = unique('wrong-client-secret');

let product: Product;
const output: string[] = [];
const errors: { step: string; rendered: string }[] = [];
const results: { step: string; text: string }[] = [];
const tokens = new Set<string>();
let steps = 0;

async function setCredentials(overrides: Record<string, string> = {}): Promise<void> {
  await product.aws.clients.secrets.send(
    new PutSecretValueCommand({
      SecretId: product.res.credentialsSecretArn,
      SecretString: JSON.stringify({
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        username: USERNAME,
        password: PASSWORD,
        webhookSigningSecret: product.webhookSecret,
        ...overrides,
      }),
    }),
  );
}

async function rememberTokens(): Promise<void> {
  const t = await product.tokenSecret();
  for (const v of [t.accessToken, t.refreshToken]) if (v) tokens.add(v);
}

/** Runs a function as a cold start (fresh modules, so no other function's state helps it). */
async function step(name: FunctionName, label: string, event: unknown = {}): Promise<unknown> {
  steps++;
  vi.resetModules();
  try {
    const value = await captureOutput(() => product.run(name, event, virtualContext(name)), output);
    results.push({ step: label, text: JSON.stringify(value) ?? '' });
    return value;
  } catch (error) {
    const e = error as Error;
    errors.push({
      step: label,
      rendered: [
        e?.message,
        String(e),
        inspect(e, { depth: 10 }),
        JSON.stringify(e),
        e?.stack,
      ].join('\n'),
    });
    return undefined;
  } finally {
    await rememberTokens().catch(() => undefined);
  }
}

function webhook(body: string, secret: string) {
  return {
    requestContext: { http: { method: 'POST' } },
    headers: {
      'content-type': 'application/json',
      ...signed(secret, body),
    },
    body,
    isBase64Encoded: false,
  };
}

beforeAll(async () => {
  product = await startProduct(
    {
      now: '2026-03-01T06:00:00Z',
      clients: [{ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }],
      users: [
        {
          username: USERNAME,
          password: PASSWORD,
          scopes: [
            '{base_url}',
            'SkyStatus.GSM',
            'SkyStatus.Reporting',
            'Console.GSM',
            'ECom.Shop',
          ],
        },
      ],
    },
    { POWERTOOLS_LOG_LEVEL: 'DEBUG', POWERTOOLS_LOGGER_LOG_EVENT: 'true' },
  );
  await setCredentials();
  const { emulator } = product;
  const site = emulator.info().gsms[0]?.sites[0];
  const cart = emulator.info().carts[0]?.vendorOrderCode ?? '';
  const order = {
    vendorOrderCode: cart,
    shipping: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      address1: '12 St James Square',
      city: 'London',
      postalCode: 'SW1Y 4JH',
      country: 'GB',
      email: 'ada@example.com',
    },
  };

  // Normal operation.
  await step('token-refresher', 'bootstrap');
  await step('token-refresher', 'refresh');
  emulator.endpointAction(emulator.machineIds(site?.key ?? '', 1)[0] ?? '', 'infect');
  await step('infection-alerter', 'alert an infection');
  emulator.addBlockedUrls(site?.id ?? '', '2026-02-28', 5000);
  await step('blocked-url-alerter', 'alert a spike');
  await step('report-fetcher', 'daily archive');
  await step(
    'cart-customer-webhook',
    'webhook accepted',
    webhook(JSON.stringify(order), product.webhookSecret),
  );

  // Service failures, retried and then given up, in every function.
  emulator.setFaults([{ kind: 'status', status: 500, count: 200, retryAfterSeconds: 0 }]);
  await step('infection-alerter', 'alerter: service failing');
  await step('blocked-url-alerter', 'blocked-url: service failing');
  await step('report-fetcher', 'backfill: service failing', { dates: ['2026-02-20'] });
  await step(
    'cart-customer-webhook',
    'webhook: service failing',
    webhook(JSON.stringify({ ...order, vendorOrderCode: 'SO-FAIL-1' }), product.webhookSecret),
  );
  emulator.setFaults([{ kind: 'reset', count: 200 }]);
  await step('report-fetcher', 'report-fetcher: connection resets', { dates: ['2026-02-21'] });
  emulator.setFaults([]);
  await step(
    'report-archive-worker',
    'archive worker: a hand-over for no job, and a malformed one',
    {
      Records: [
        {
          messageId: 'm1',
          body: JSON.stringify({ gsm: product.gsm, day: '2026-02-20', generation: 1 }),
        },
        { messageId: 'm2', body: '{"gsm":1}' },
      ],
    } as unknown as SQSEvent,
  );

  // Refused requests and bad input.
  await step(
    'cart-customer-webhook',
    'webhook: wrong signature',
    webhook(JSON.stringify(order), generateSigningSecret()),
  );
  await step('report-fetcher', 'report-fetcher: bad event', {
    from: '2026-13-01',
    to: '2026-02-01',
  });

  // Revoked tokens: every reader fails until the refresher recovers with the password grant.
  emulator.revokeTokens();
  await step('infection-alerter', 'alerter: revoked token');
  await step('report-fetcher', 'report-fetcher: revoked token');
  await step(
    'cart-customer-webhook',
    'webhook: revoked token',
    webhook(JSON.stringify(order), product.webhookSecret),
  );
  await step('token-refresher', 'refresher: recover from revoked token');

  // Expired token (the service's clock moved on and nobody refreshed).
  emulator.advanceClock(900);
  await step('infection-alerter', 'alerter: expired token');

  // Bad credentials: a dead refresh token and a wrong password, then a wrong client secret.
  emulator.revokeTokens();
  await setCredentials({ password: WRONG_PASSWORD });
  await step('token-refresher', 'refresher: wrong password');
  await setCredentials({ clientSecret: WRONG_CLIENT_SECRET });
  await step('token-refresher', 'refresher: wrong client secret');
  await setCredentials();
  await step('token-refresher', 'refresher: credentials fixed');
  await step('infection-alerter', 'alerter: after recovery');
  results.push({ step: 'alerts', text: JSON.stringify(await product.alerts()) });
  results.push({ step: 'health alerts', text: JSON.stringify(await product.healthAlerts()) });
}, 120_000);
afterAll(async () => product?.close());

function secretValues(): Record<string, string> {
  const values: Record<string, string> = {
    'client secret': CLIENT_SECRET,
    password: PASSWORD,
    'wrong password': WRONG_PASSWORD,
    'wrong client secret': WRONG_CLIENT_SECRET,
    'webhook signing secret': product.webhookSecret,
    'Basic credentials': Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64'),
  };
  [...tokens].forEach((t, i) => {
    values[`token #${i + 1}`] = t;
  });
  return values;
}

function hits(texts: { where: string; text: string }[]) {
  const found: string[] = [];
  for (const [name, value] of Object.entries(secretValues())) {
    for (const form of new Set([value, encodeURIComponent(value)])) {
      for (const { where, text } of texts) {
        const at = text.indexOf(form);
        if (at >= 0)
          found.push(`${name} in ${where}: …${text.slice(Math.max(0, at - 80), at)}<SECRET>…`);
      }
    }
  }
  return found;
}

describe('Secrets never leak', () => {
  it('captured plenty of logs, failures and tokens to scan', () => {
    const lines = output.join('').split('\n').filter(Boolean);
    console.info(
      `reliability figures (secrets): ${JSON.stringify({
        invocations: steps,
        logLines: lines.length,
        logBytes: output.join('').length,
        errors: errors.length,
        tokens: tokens.size,
        secretsSearched: Object.keys(secretValues()).length,
      })}`,
    );
    expect(lines.length).toBeGreaterThan(50);
    // The Logger's JSON lines were captured, from every function, with the events logged.
    for (const service of [
      'token-refresher',
      'infection-alerter',
      'blocked-url-alerter',
      'report-fetcher',
      'report-archive-worker',
      'cart-customer-webhook',
    ])
      expect(lines.some((l) => l.includes(`"service":"${service}"`))).toBe(true);
    expect(lines.filter((l) => l.includes('"Lambda invocation event"'))).toHaveLength(steps);
    expect(errors.map((e) => e.step)).toEqual(
      expect.arrayContaining([
        'blocked-url: service failing',
        'report-fetcher: bad event',
        'alerter: revoked token',
        'refresher: wrong password',
        'refresher: wrong client secret',
      ]),
    );
    // Two bootstraps/recoveries and several rotations: many distinct tokens.
    expect(tokens.size).toBeGreaterThan(6);
  });

  it('the scan finds a secret when one is written (the search works)', () => {
    expect(hits([{ where: 'probe', text: `x ${encodeURIComponent(PASSWORD)} y` }])).toHaveLength(1);
  });

  it('writes no secret to stdout or stderr', () => {
    expect(hits(output.map((text, i) => ({ where: `output chunk ${i}`, text })))).toEqual([]);
  });

  it('puts no secret in any thrown error, however it is rendered', () => {
    expect(hits(errors.map((e) => ({ where: `error of "${e.step}"`, text: e.rendered })))).toEqual(
      [],
    );
  });

  it('puts no secret in return values or alerts', () => {
    expect(hits(results.map((r) => ({ where: `result of "${r.step}"`, text: r.text })))).toEqual(
      [],
    );
  });
});
