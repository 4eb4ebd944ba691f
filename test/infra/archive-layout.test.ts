import { beforeAll, describe, expect, it } from 'vitest';
import { archiveGsmReports, planWalks } from '../../functions/report-fetcher/open-day.js';
import { storeSite } from '../../functions/report-fetcher/tasks.js';
import {
  type ArchivedObject,
  alertEventsKey,
  DNSP_REPORT_TYPE,
  GSM_REPORT_TYPES,
  type ReportStore,
  snapshotKey,
} from '../../lib/aws/index.js';
import type { SkywatchClient, UsageReportSiteDNSP } from '../../lib/index.js';
import { type Json, type Synth, synth } from './helpers.js';

// The tables must find what the report fetcher writes. The keys come from the fetcher's own
// archive steps, run against a store that only records them (a unit test: no S3 needed).

const GSM = 'AAAA-BBBB-CCCC-DDDD-EEEE';
const DAY = '2026-06-15';

function recordingStore(keys: string[]): ReportStore {
  const archived = (key: string): ArchivedObject => ({
    key,
    bytes: 0,
    records: 0,
    sha256: '',
    written: true,
  });
  const store = {
    writeRecords: async (key: string) => {
      keys.push(key);
      return archived(key);
    },
  };
  return store as unknown as ReportStore;
}

const reportInfo = { EffectiveDate: `${DAY}T00:00:00Z`, ReportType: 'x', GSMKey: GSM };
const client = {
  gsmUsageReport: async () => ({ ReportInfo: reportInfo, GSM: {} }),
  sitesUsageReport: async () => ({ ReportInfo: { ...reportInfo, Count: 0 }, Sites: [] }),
} as unknown as SkywatchClient;

let keys: string[];
let s: Synth;
beforeAll(async () => {
  keys = [];
  const store = recordingStore(keys);
  await archiveGsmReports(client, store, GSM, DAY);
  // Snapshot walks of the console, and of a site when a large console is walked site by site.
  const site = { key: 'SITE-KEY-1', id: 'id', name: 'n', endpoints: 10 };
  for (const above of [100, 0])
    for (const task of planWalks([site], 0, { siteWalkAbove: above }))
      keys.push(snapshotKey(task.dataset, GSM, DAY, task.site));
  await storeSite(store, { gsm: GSM, site: 'SITE-KEY-1', day: DAY }, {} as UsageReportSiteDNSP);
  // The alert history the alerter and the notifier write beside the reports.
  for (const writer of ['alerter', 'notifier'])
    keys.push(alertEventsKey(GSM, DAY, writer, 'run-1'));
  s = synth();
});

interface Projection {
  /** The storage location template as a pattern over object keys. */
  readonly pattern: RegExp;
  /** The values of the `type` partition, if the table has one. */
  readonly types: string[] | undefined;
}

/** Each table's projection, by table name. */
function projections(): Map<string, Projection> {
  const out = new Map<string, Projection>();
  for (const t of Object.values(s.template.findResources('AWS::Glue::Table'))) {
    const input: Json = t.Properties.TableInput;
    const joined: unknown[] = input.Parameters['storage.location.template']['Fn::Join'][1];
    const suffix = String(joined.at(-1)).replace(/^\//, '');
    const pattern = suffix
      .replace(/[.*+?^()|[\]\\]/g, '\\$&')
      .replace(/\$\{(\w+)\}/g, (_m, name: string) => `(?<${name}>[^/]+)`);
    const types: string | undefined = input.Parameters['projection.type.values'];
    out.set(input.Name, { pattern: new RegExp(`^${pattern}`), types: types?.split(',') });
  }
  return out;
}

describe('Archive tables and the keys the report fetcher writes', () => {
  it('places every archived object under exactly one table, at its projected partition', () => {
    const tables = [...projections()];
    expect(keys.length).toBe(GSM_REPORT_TYPES.length * 2 + 7);
    for (const key of keys) {
      const matches = tables.filter(([, { pattern }]) => pattern.test(key));
      expect(
        matches.map(([name]) => name),
        key,
      ).toHaveLength(1);
      const projection = matches[0]?.[1];
      const groups = projection?.pattern.exec(key)?.groups ?? {};
      expect(groups.gsm_key, key).toBe(GSM);
      expect(groups.date, key).toBe(DAY);
      if (groups.type !== undefined) expect(projection?.types, key).toContain(groups.type);
    }
  });

  it('gives every table at least one object the fetcher writes', () => {
    for (const [name, { pattern }] of projections()) {
      expect(
        keys.some((key) => pattern.test(key)),
        name,
      ).toBe(true);
    }
  });

  it('projects the report types of the archive layout (lib/aws/report-keys.ts)', () => {
    const typeValues = (name: string) => projections().get(name)?.types;
    expect(typeValues('gsm_usage')).toEqual([...GSM_REPORT_TYPES]);
    expect(typeValues('site_usage')).toEqual([...GSM_REPORT_TYPES]);
    expect(typeValues('dnsp_usage')).toEqual([DNSP_REPORT_TYPE]);
  });
});
