import { describe, expect, it } from 'vitest';
import { AgentStatusPage, parseResponse, SchemaError, UsageReportSite } from '../../lib/index.js';

function entry(i: number) {
  return {
    MasterKC: 'AAAA-AAAA-AAAA-AAAA-AAAA',
    KC: 'BBBB-BBBB-BBBB-BBBB-BBBB',
    MachineID: `A:::B:::${i}`,
    LastChanged: '2026-06-11T13:00:00Z',
    HostName: 'h',
    IPAddress: '10.0.0.1',
    ClientVersion: '9',
    OS: 'Windows',
    FirstSeen: '2024-04-06T00:00:00Z',
    LastSeen: '2026-06-12T09:00:00Z',
    TimesSeen: 3,
    Hidden: false,
    Deactivated: false,
    ActivationStatusTime: null,
    BasicInfo: {
      StatusRefreshTime: '2026-06-12T09:00:00Z',
      Managed: true,
      SKU: 'WSAV',
      PartnerNumber: 1,
      Version: '9',
      ActiveThreats: 0,
      DeviceType: 'Laptop',
      AttentionRequired: false,
      Infected: false,
      NewField: 'kept',
    },
    FutureTopLevel: 42,
  };
}

function page(entries: unknown[]) {
  return {
    QueryResults: entries,
    ContinuationToken: null,
    ContinuationURI: null,
    Count: entries.length,
  };
}

describe('Function: parseResponse', () => {
  it('keeps unknown fields at every level', () => {
    const parsed = parseResponse(AgentStatusPage, page([entry(0)]), 'page');
    expect(parsed.QueryResults[0]?.BasicInfo).toMatchObject({ NewField: 'kept' });
    expect(parsed.QueryResults[0]).toMatchObject({ FutureTopLevel: 42 });
  });

  it('names the field path of a broken value', () => {
    const entries = [0, 1, 2, 3].map(entry);
    (entries[3]?.BasicInfo as Record<string, unknown>).Infected = 'yes';
    try {
      parseResponse(AgentStatusPage, page(entries), 'AgentStatus page');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SchemaError);
      expect((error as SchemaError).path).toBe('QueryResults[3].BasicInfo.Infected');
      expect((error as SchemaError).message).toContain('QueryResults[3].BasicInfo.Infected');
    }
  });

  it('reports a missing required field and a group absent when not selected is fine', () => {
    const e = entry(0) as Record<string, unknown>;
    delete e.BasicInfo;
    expect(() => parseResponse(AgentStatusPage, page([e]), 'p')).not.toThrow();
    delete e.HostName;
    expect(() => parseResponse(AgentStatusPage, page([e]), 'p')).toThrow(
      /QueryResults\[0\]\.HostName/,
    );
  });

  it('accepts an unknown 4.7 shape and keeps it', () => {
    const odd = { ReportInfo: { Something: 1 }, Totals: { A: 1 } };
    expect(parseResponse(UsageReportSite, odd, '4.7')).toEqual(odd);
  });
});
