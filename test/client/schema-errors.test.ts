import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SchemaError, type TokenSet } from '../../lib/index.js';
import { startWorld, type World } from './support/world.js';

let w: World;
beforeEach(async () => {
  w = await startWorld();
});
afterEach(() => w.emu.close());

/** Every way a logger or a person may look at an error. */
function renderings(error: unknown): string[] {
  const e = error as Error;
  return [e.message, e.stack ?? '', JSON.stringify(error), inspect(error, { depth: 10 })];
}

// The client in strict mode, as conformance tests use it: the first surprise is an error.
// Tolerant reading of the same faults is in test/client/tolerant-reader.test.ts.
describe('SchemaError over HTTP (emulator wrong-type fault, strict client)', () => {
  it('names the field path of a wrongly typed field in a page entry', async () => {
    // Prepare
    const pairs: TokenSet[] = [];
    const client = w.client({
      strict: true,
      auth: {
        clientId: w.info.client.clientId,
        clientSecret: w.info.client.clientSecret,
        username: w.ops.username,
        password: w.ops.password,
        onTokens: (t) => void pairs.push(t),
      },
    });
    await client.gsmUsageReport(w.gsm.key); // a token first, so its value is known
    w.emu.resetStats();
    w.emu.setFaults([{ operation: 'status.gsm', kind: 'wrong-type', count: 1 }]);
    // Act
    const error = await client
      .gsmAgentStatus(w.gsm.key, { batchSize: 5, returnedInfo: ['BasicInfo'] })
      .firstPage()
      .catch((e: unknown) => e);
    // Assess
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as SchemaError).path).toBe('QueryResults[0].BasicInfo.Infected');
    expect((error as Error).message).toContain('QueryResults[0].BasicInfo.Infected');
    // A body that parses is the service's answer, not a broken transfer: not retried.
    expect(w.emu.stats().byOperation['status.gsm']).toBe(1);
    const secrets = [
      w.info.client.clientSecret,
      w.ops.password,
      ...pairs.flatMap((p) => [p.accessToken, p.refreshToken ?? '']),
    ].filter((s) => s.length > 0);
    expect(secrets.length).toBeGreaterThanOrEqual(4);
    for (const text of renderings(error)) {
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
  });

  it('names the path of the first entry whatever groups are returned', async () => {
    const client = w.client({ strict: true });
    w.emu.setFaults([{ operation: 'status.site', kind: 'wrong-type', count: 1 }]);
    const error = await client
      .siteAgentStatus(w.site.key, { batchSize: 3, returnedInfo: ['BasicInfo', 'ExtendedInfo'] })
      .firstPage()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'SchemaError',
      path: 'QueryResults[0].ExtendedInfo.ManualAgentShutdown',
    });
    // The fault fired once: the next page is whole again and validates.
    const page = await client.siteAgentStatus(w.site.key, { batchSize: 3 }).firstPage();
    expect(page.entries).toHaveLength(3);
  });

  it('names the path inside a report without entries', async () => {
    const client = w.client({ strict: true });
    const whole = await client.siteDnspUsageReport(w.gsm.key, w.dnspSite.key);
    w.emu.setFaults([{ operation: 'report.site.dnsp', kind: 'wrong-type', count: 1 }]);
    const error = await client
      .siteDnspUsageReport(w.gsm.key, w.dnspSite.key)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    // The body's last boolean: the last site's DNSPEnabled.
    expect((error as SchemaError).path).toBe(
      `Sites[${(whole.Sites?.length ?? 0) - 1}].DNSPEnabled`,
    );
  });
});
