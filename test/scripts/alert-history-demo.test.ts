import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertHistory, ReportStore } from '../../lib/aws/index.js';
import { alertEventsFolder } from '../../lib/aws/report-keys.js';
import { ArchiveReader } from '../../lib/reports/archive-reader.js';
import { alertSectionLine, backdateAlertHistory } from '../../scripts/local/alert-history-demo.js';
import type { LocalResources } from '../../scripts/local/provision.js';
import { historyRow } from '../support/alert-rows.js';
import { type LocalAws, startLocalAws } from '../support/local-aws.js';

const GSM = 'AAAA-BBBB-CCCC-DDDD-EEEE';

let aws: LocalAws;
let res: LocalResources;
let reader: ArchiveReader;

beforeAll(async () => {
  aws = await startLocalAws();
  res = await aws.provision();
  reader = new ArchiveReader(aws.clients.s3, res.bucket);
  const store = new ReportStore(aws.clients.s3, res.bucket);
  const fail = (e: unknown) => {
    throw e;
  };
  const resolve = historyRow({
    gsm: GSM,
    alert: 'offline/M1',
    seq: 2,
    event: 'resolve',
    at: '2026-06-16T10:05:00.000Z',
    seconds: 300,
  });
  await new AlertHistory(store, 'alerter', fail).write('run-1', [resolve], Date.parse(resolve.at));
  const earlier = historyRow({
    gsm: GSM,
    alert: 'offline/M2',
    seq: 1,
    event: 'trigger',
    at: '2026-06-14T09:00:00.000Z',
  });
  await new AlertHistory(store, 'alerter', fail).write('run-0', [earlier], Date.parse(earlier.at));
});
afterAll(async () => aws?.moto.stop());

describe('Module: alert-history-demo (npm start)', () => {
  it("moves the run's history onto the report day, instants shifted alike, and leaves that day's own", async () => {
    const moved = await backdateAlertHistory(
      aws.clients.s3,
      res.bucket,
      GSM,
      '2026-06-14',
      '2026-06-16',
    );
    expect(moved).toEqual({ objects: 1, rows: 1 });
    expect(await reader.keys(alertEventsFolder(GSM, '2026-06-16'))).toEqual([]);
    const keys = (await reader.keys(alertEventsFolder(GSM, '2026-06-14'))).sort();
    expect(keys.map((k) => k.slice(k.lastIndexOf('/') + 1))).toEqual([
      'alerter-run-0.ndjson.gz',
      'alerter-run-1.ndjson.gz',
    ]);
    const [row] = (await reader.records(keys[1] ?? '')) ?? [];
    expect(row).toMatchObject({
      at: '2026-06-14T10:05:00.000Z',
      openedAt: '2026-06-14T10:00:00.000Z',
      resolveSeconds: 300,
    });
  });

  it('says what the Alerts section shows', () => {
    expect(
      alertSectionLine('2026-06-14', { open: 3, opened: 4, resolved: 1, sitesResolved: 1 }),
    ).toBe(
      'Alerts section (#alerts): 3 open at the end of 2026-06-14, 4 opened and 1 resolved that day; time to resolve charted for 1 site over 30 days',
    );
  });
});
