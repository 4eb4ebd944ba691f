import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SkywatchClient, type TokenSet } from '../../lib/index.js';
import { CUSTOMER, startWorld, virtualClock, type World } from './support/world.js';

let w: World;
beforeAll(async () => {
  w = await startWorld();
});
afterAll(() => w.emu.close());

describe('Redaction of secrets in errors and captured logs', () => {
  it('never shows tokens, passwords or the client secret', async () => {
    const logs: string[] = [];
    const tokens: TokenSet[] = [];
    const log = (kind: string) => (e: unknown) => logs.push(`${kind} ${JSON.stringify(e)}`);
    const hooks = {
      onRequest: log('request'),
      onResponse: log('response'),
      onRetry: log('retry'),
      onTokenRenewal: log('renewal'),
      onTokenFallback: log('fallback'),
      onScopesReduced: log('scopes'),
    };
    const creds = {
      clientId: w.info.client.clientId,
      clientSecret: w.info.client.clientSecret,
      username: w.ops.username,
      password: w.ops.password,
    };
    const client = w.client({
      hooks,
      retry: { maxAttempts: 2 },
      auth: { ...creds, onTokens: (t) => void tokens.push(t) },
    });
    const errors: unknown[] = [];
    const capture = (p: Promise<unknown>) => p.catch((e: unknown) => errors.push(e));

    await client.gsmUsageReport(w.gsm.key);
    w.emu.advanceClock(301); // renew through the refresh grant: a second pair
    await client.gsmUsageReport(w.gsm.key);
    await capture(client.gsmUsageReport('ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ'));
    w.emu.setFaults([{ operation: 'report.gsm', kind: 'status', status: 429 }]);
    await capture(client.gsmUsageReport(w.gsm.key));
    w.emu.setFaults([{ operation: 'report.gsm', kind: 'malformed' }]);
    await capture(client.gsmUsageReport(w.gsm.key));
    w.emu.setFaults([{ operation: 'cart.customers', kind: 'reset' }]);
    await capture(client.addCartCustomers(w.standardCart.vendorOrderCode, { Shipping: CUSTOMER }));
    w.emu.setFaults([]);
    const wrongPassword = w.client({
      hooks,
      auth: { ...creds, password: `${w.ops.password}-wrong` },
    });
    await capture(wrongPassword.gsmUsageReport(w.gsm.key));
    const wrongClient = w.client({
      hooks,
      auth: { ...creds, clientSecret: `${creds.clientSecret}-wrong` },
    });
    await capture(wrongClient.gsmUsageReport(w.gsm.key));
    const revoked = tokens[1]?.accessToken ?? '';
    w.emu.revokeTokens();
    const staticClient = new SkywatchClient({
      baseUrl: w.emu.baseUrl,
      auth: revoked,
      hooks,
      clock: virtualClock(w.emu).clock,
    });
    await capture(staticClient.gsmUsageReport(w.gsm.key));
    const deadRefresh = w.client({
      hooks,
      auth: {
        clientId: creds.clientId,
        clientSecret: creds.clientSecret,
        refreshToken: tokens[0]?.refreshToken,
      },
    });
    await capture(deadRefresh.gsmUsageReport(w.gsm.key));

    expect(tokens).toHaveLength(2);
    expect(errors.map((e) => (e as Error).name)).toEqual([
      'HttpError',
      'RateLimitError',
      'SchemaError',
      'NetworkError',
      'AuthError',
      'AuthError',
      'AuthError',
      'AuthError',
    ]);
    const secrets = [
      creds.clientSecret,
      `${creds.clientSecret}-wrong`,
      creds.password,
      ...tokens.flatMap((t) => [t.accessToken, t.refreshToken ?? 'none']),
      Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64'),
    ];
    const shown = [
      ...logs,
      ...errors.flatMap((e) => [
        inspect(e, { depth: 10 }),
        JSON.stringify(e),
        String(e),
        (e as Error).stack ?? '',
      ]),
    ].join('\n');
    expect(logs.length).toBeGreaterThan(10);
    for (const secret of secrets) expect(shown).not.toContain(secret);
  });
});
