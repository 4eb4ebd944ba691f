import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AgentStatusPage, readTolerant, SchemaError, UsageReportSites } from '../../lib/index.js';

function entry(i: number): Record<string, unknown> {
  return {
    MasterKC: 'AAAA-AAAA-AAAA-AAAA-AAAA',
    KC: 'BBBB-BBBB-BBBB-BBBB-BBBB',
    MachineID: `A:::B:::${i}`,
    LastChanged: '2026-06-11T13:00:00Z',
    HostName: 'h',
    IPAddress: '10.0.0.1',
    ClientVersion: '9',
    OS: 'Windows',
    FirstSeen: '2024-04-06T00:00:00',
    LastSeen: '2026-06-12T09:00:00.0000000Z',
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
    },
  };
}

const page = (entries: unknown[]) => ({
  QueryResults: entries,
  ContinuationToken: null,
  ContinuationURI: null,
  Count: entries.length,
});

/** Fields of an entry a surprise may hit, as paths. */
const FIELDS = [
  ['KC'],
  ['LastChanged'],
  ['LastSeen'],
  ['TimesSeen'],
  ['Hidden'],
  ['BasicInfo', 'Infected'],
  ['BasicInfo', 'ActiveThreats'],
  ['BasicInfo', 'StatusRefreshTime'],
] as const;

/** What the service may send instead of a field's value. */
const SURPRISE = fc.constantFrom(null, '', '   ', 'true', 7.5, [], {}, '2023-13-45T99:00:00Z');

describe('Function: readTolerant', () => {
  it('delivers every entry whatever each one carries, and names each surprise by path', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            field: fc.integer({ min: 0, max: FIELDS.length - 1 }),
            value: SURPRISE,
            extra: fc.option(fc.string({ minLength: 1, maxLength: 8 }), { nil: undefined }),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        (mutations) => {
          // Prepare: one mutation per entry, some with an undocumented field as well.
          const entries = mutations.map((m, i) => {
            const e = structuredClone(entry(i));
            const path = FIELDS[m.field] ?? ['KC'];
            const holder = (path.length === 2 ? e[path[0]] : e) as Record<string, unknown>;
            holder[path[path.length - 1] as string] = m.value;
            if (m.extra !== undefined) e[`X_${m.extra}`] = m.extra;
            return e;
          });
          // Act
          const { value, surprises } = readTolerant(AgentStatusPage, page(entries), 'page');
          // Assess
          expect(value.QueryResults).toHaveLength(entries.length);
          mutations.forEach((m, i) => {
            const delivered = value.QueryResults?.[i] as Record<string, unknown>;
            expect(delivered.MachineID).toBe(`A:::B:::${i}`);
            const path = (FIELDS[m.field] ?? ['KC']).join('.');
            // Strings that are strings stay: a blank KC is a valid (if odd) string.
            const stillValid = path === 'KC' && typeof m.value === 'string';
            if (!stillValid) {
              expect(surprises.map((s) => s.at)).toContain(`QueryResults[${i}].${path}`);
            }
            if (m.extra !== undefined) {
              expect(delivered[`X_${m.extra}`]).toBe(m.extra);
              expect(surprises).toContainEqual({
                at: `QueryResults[${i}].X_${m.extra}`,
                path: `QueryResults.X_${m.extra}`,
                rule: 'unknown-field',
              });
            }
          });
          for (const s of surprises) expect(JSON.stringify(s)).not.toContain('2023-13-45');
        },
      ),
      { numRuns: 60 },
    );
  });

  it('names the rule a field broke', () => {
    const e = entry(0);
    Object.assign(e, { LastSeen: null, TimesSeen: '', Hidden: 'false', FirstSeen: 'yesterday' });
    delete e.OS;
    const { surprises } = readTolerant(AgentStatusPage, page([e]), 'page');
    expect(Object.fromEntries(surprises.map((s) => [s.path, s.rule]))).toEqual({
      'QueryResults.LastSeen': 'null',
      'QueryResults.TimesSeen': 'blank',
      'QueryResults.Hidden': 'type',
      'QueryResults.FirstSeen': 'format',
      'QueryResults.OS': 'missing',
    });
  });

  it('reads an entry that is not an object at all as an empty one', () => {
    const { value, surprises } = readTolerant(
      AgentStatusPage,
      page([entry(0), null, 'x', entry(3)]),
      'page',
    );
    expect(value.QueryResults?.map((e) => e.MachineID)).toEqual([
      'A:::B:::0',
      undefined,
      undefined,
      'A:::B:::3',
    ]);
    expect(surprises.map((s) => [s.at, s.rule])).toEqual([
      ['QueryResults[1]', 'null'],
      ['QueryResults[2]', 'type'],
    ]);
  });

  it('reads reports the same way, entry by entry', () => {
    const site = {
      SiteId: 'id',
      SiteKey: 'K',
      SiteName: 'n',
      LicenseType: 'Full',
      ExpiryDate: '2027-01-01T00:00:00',
      SiteState: 'active',
      SiteStateChangedDate: null,
      TotalEndpoints: 3,
    };
    const report = {
      ReportInfo: {
        Count: 2,
        SiteKeyFilter: null,
        ReportType: 'A',
        EffectiveDate: '2026-06-13T00:00:00.0000000Z',
        GSMKey: 'G',
      },
      Sites: [site, { ...site, SiteKey: 'L', SiteStateChangedDate: '2026-01-01T00:00:00Z' }],
    };
    const { value, surprises } = readTolerant(UsageReportSites, report, 'UsageReportSites');
    expect(value.Sites?.map((s) => s.SiteKey)).toEqual(['K', 'L']);
    expect(surprises).toEqual([
      { at: 'Sites[0].SiteStateChangedDate', path: 'Sites.SiteStateChangedDate', rule: 'null' },
    ]);
  });

  it('in strict mode throws a SchemaError at the first broken field, not at unknown ones', () => {
    const e = { ...entry(0), Extra: 1 };
    expect(readTolerant(AgentStatusPage, page([e]), 'page', { strict: true }).surprises).toEqual([
      { at: 'QueryResults[0].Extra', path: 'QueryResults.Extra', rule: 'unknown-field' },
    ]);
    const broken = { ...entry(1), Hidden: null };
    expect(() =>
      readTolerant(AgentStatusPage, page([entry(0), broken]), 'page', { strict: true }),
    ).toThrow(SchemaError);
  });
});
