import { afterEach, describe, expect, it } from 'vitest';
import {
  SchemaError,
  SkywatchClient,
  StaticTokenSource,
  userAgent,
  ValidationError,
} from '../../lib/index.js';
import { closeLocalServers, json, type LocalServer, localServer } from './support/local-server.js';

let server: LocalServer | undefined;
afterEach(closeLocalServers);

const KEY = 'AAAA-BBBB-CCCC-DDDD-EEEE';

function dnsp(i: number, extra: Record<string, unknown> = {}) {
  return {
    HostName: `h${i}`,
    IsVirtualMachine: false,
    DNSAgentStatus: 'Installed',
    InstalledDate: '2026-01-01T00:00:00Z',
    UninstalledDate: null,
    AgentVersion: '1',
    LastSeenDate: '2026-06-01T00:00:00Z',
    LastModifiedDate: '2026-06-01T00:00:00Z',
    TrafficCountLast24Hours: i,
    DNSPolicyID: '00000000-0000-4000-8000-000000000000',
    DNSPolicyName: 'p',
    MachineID: `a:::b:::${i}`,
    KC: KEY,
    MasterKC: KEY,
    ...extra,
  };
}

describe('Class: SkywatchClient (against a local server)', () => {
  it('sends User-Agent, Bearer token and Accept, and follows the token not the URI host', async () => {
    server = await localServer((req, res) => {
      const url = new URL(req.url, 'http://x');
      const last = url.searchParams.get('continuation') === 'T2';
      json(res, 200, {
        QueryResults: [dnsp(last ? 2 : 1)],
        ContinuationToken: last ? null : 'T2',
        ContinuationURI: last ? null : 'https://elsewhere.example/steal?continuation=T2',
        Count: 1,
      });
    });
    const client = new SkywatchClient({
      baseUrl: `${server.url}/service/`,
      auth: 'static-access-token',
      userAgentSuffix: 'unit',
    });
    const hosts: number[] = [];
    for await (const e of client.siteDnspStatus(KEY.toLowerCase(), {
      batchSize: 1,
      modifiedSince: '2026-06-01',
    }))
      hosts.push(e.TrafficCountLast24Hours ?? -1);
    expect(hosts).toEqual([1, 2]);
    expect(server.seen.map((s) => s.url)).toEqual([
      `/service/api/status/site/dnsp/${KEY}?modifiedSince=2026-06-01T00%3A00%3A00Z&batchSize=1`,
      `/service/api/status/site/dnsp/${KEY}?modifiedSince=2026-06-01T00%3A00%3A00Z&batchSize=1&continuation=T2`,
    ]);
    const h = server.seen[0]?.headers;
    expect(h?.['user-agent']).toBe(userAgent('unit'));
    expect(h?.authorization).toBe('Bearer static-access-token');
    expect(h?.accept).toBe('application/json');
  });

  it('in strict mode raises SchemaError naming the path of a bad field', async () => {
    server = await localServer((_req, res) =>
      json(res, 200, {
        QueryResults: [dnsp(0, { New: 1 }), dnsp(1, { KC: 7 })],
        ContinuationToken: null,
        ContinuationURI: null,
        Count: 2,
      }),
    );
    const client = new SkywatchClient({ baseUrl: server.url, auth: 't0ken-value', strict: true });
    const error = await client
      .gsmDnspStatus(KEY)
      .firstPage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as SchemaError).path).toBe('QueryResults[1].KC');
  });

  it('reads around a bad field by default, keeping unknown fields and reporting both', async () => {
    server = await localServer((_req, res) =>
      json(res, 200, {
        QueryResults: [dnsp(0, { New: 1 }), dnsp(1, { KC: 7 })],
        ContinuationToken: null,
        ContinuationURI: null,
        Count: 2,
      }),
    );
    const surprises: unknown[] = [];
    const client = new SkywatchClient({
      baseUrl: server.url,
      auth: 't0ken-value',
      onSurprise: (s) => surprises.push(s),
    });
    const page = await client.gsmDnspStatus(KEY).firstPage();
    expect(page.entries).toHaveLength(2);
    expect(page.entries[0]).toMatchObject({ New: 1, MachineID: 'a:::b:::0' });
    expect(page.entries[1]?.KC).toBeUndefined();
    expect(page.entries[1]?.MachineID).toBe('a:::b:::1');
    // The archive's text of the entry is the service's, the bad field included.
    expect(JSON.parse(page.entryTexts()[1] ?? '')).toMatchObject({ KC: 7 });
    expect(surprises).toEqual([
      {
        model: 'DNSPAgentStatus page',
        at: 'QueryResults[0].New',
        path: 'QueryResults.New',
        rule: 'unknown-field',
      },
      {
        model: 'DNSPAgentStatus page',
        at: 'QueryResults[1].KC',
        path: 'QueryResults.KC',
        rule: 'type',
      },
    ]);
  });

  it('replays once after a 401 with a reloaded token', async () => {
    server = await localServer((req, res) => {
      if (req.headers.authorization === 'Bearer old-token-x')
        json(
          res,
          401,
          { code: 'invalid_token' },
          { 'www-authenticate': 'Bearer realm="skywatch", error="invalid_token"' },
        );
      else
        json(res, 200, {
          ReportInfo: { ReportType: 'A', EffectiveDate: '2026-06-13T00:00:00Z', GSMKey: KEY },
          GSM: {
            GSMConsoleName: 'g',
            LicenseType: 'Full',
            ExpiryDate: '2027-01-01T00:00:00Z',
            TotalSitesWithoutTrial: 1,
            TotalTrialSites: 0,
            TotalEndpointsWithoutTrial: 1,
            TotalTrialEndpoints: 0,
          },
        });
    });
    const tokens = ['old-token-x', 'new-token-y'];
    const client = new SkywatchClient({
      baseUrl: server.url,
      auth: new StaticTokenSource(() => tokens.shift() ?? 'none'),
    });
    expect((await client.gsmUsageReport(KEY)).GSM?.GSMConsoleName).toBe('g');
    expect(server.seen.map((s) => s.headers.authorization)).toEqual([
      'Bearer old-token-x',
      'Bearer new-token-y',
    ]);
  });

  it('refuses to build credentials auth without an authUrl', () => {
    expect(
      () => new SkywatchClient({ baseUrl: 'http://h', auth: { clientId: 'a', clientSecret: 'b' } }),
    ).toThrow(ValidationError);
  });
});
