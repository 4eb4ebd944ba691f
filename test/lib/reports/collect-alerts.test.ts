import { gzipSync } from 'node:zlib';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertHistory, ReportStore } from '../../../lib/aws/index.js';
import { alertEventsKey } from '../../../lib/aws/report-keys.js';
import { openTotal } from '../../../lib/reports/alert-report.js';
import { ArchiveReader } from '../../../lib/reports/archive-reader.js';
import { collectAlertReport } from '../../../lib/reports/collect-alerts.js';
import type { LocalResources } from '../../../scripts/local/provision.js';
import { historyRow, type Transition } from '../../support/alert-rows.js';
import { type LocalAws, startLocalAws } from '../../support/local-aws.js';

const GSM = 'AAAA-BBBB-CCCC-DDDD-EEEE';
const DAY = '2026-06-14';

let aws: LocalAws;
let res: LocalResources;
let reader: ArchiveReader;
let run = 0;

/** Writes transitions as the alerter's AlertHistory does: one object per run, dated by `at`. */
async function written(writer: 'alerter' | 'notifier', transitions: Transition[]) {
  const history = new AlertHistory(new ReportStore(aws.clients.s3, res.bucket), writer, (e) => {
    throw e;
  });
  const at = Date.parse(transitions[0]?.at ?? DAY);
  await history.write(`run-${++run}`, transitions.map(historyRow), at);
}

const collect = (days = 30) =>
  collectAlertReport(reader, { gsm: GSM, day: DAY, days, limit: pLimit(4) });

beforeAll(async () => {
  aws = await startLocalAws();
  res = await aws.provision();
  reader = new ArchiveReader(aws.clients.s3, res.bucket);
  await written('alerter', [
    { alert: 'offline/M1', seq: 1, event: 'trigger', at: '2026-06-10T08:00:00Z', site: 'A' },
    { alert: 'offline/M2', seq: 1, event: 'trigger', at: '2026-06-10T08:00:00Z', site: 'A' },
  ]);
  await written('alerter', [
    {
      alert: 'offline/M2',
      seq: 2,
      event: 'resolve',
      at: `${DAY}T09:00:00Z`,
      site: 'A',
      seconds: 4 * 86_400 + 3600,
    },
    { alert: 'infected/M3', seq: 1, event: 'trigger', at: `${DAY}T09:00:00Z`, site: 'B' },
  ]);
  // After the report day: the page of DAY shows the alerts as they were at its end.
  await written('alerter', [
    { alert: 'offline/M1', seq: 2, event: 'resolve', at: '2026-06-15T01:00:00Z', site: 'A' },
  ]);
  // Before the window: the alert it opened is not seen.
  await written('alerter', [
    { alert: 'offline/OLD', seq: 1, event: 'trigger', at: '2026-05-01T00:00:00Z', site: 'A' },
  ]);
  // The notifier's delivery rows of the same day are no alerts and are not read.
  await written('notifier', [
    { alert: 'offline/M9', seq: 1, event: 'trigger', at: `${DAY}T09:01:00Z`, site: 'A' },
  ]);
  // A cut line, a line of another shape and one valid row, in one object of the day.
  const valid = historyRow({
    alert: 'protection-off/M4',
    seq: 1,
    event: 'trigger',
    at: `${DAY}T10:00:00Z`,
    site: 'B',
  });
  const body = ['{"at":"2026-06-14T1', JSON.stringify({ hello: 'world' }), JSON.stringify(valid)];
  await aws.clients.s3.send(
    new PutObjectCommand({
      Bucket: res.bucket,
      Key: alertEventsKey(GSM, DAY, 'alerter', 'damaged'),
      Body: gzipSync(`${body.join('\n')}\n`),
    }),
  );
});
afterAll(async () => aws?.moto.stop());

describe('Function: collectAlertReport', () => {
  it('counts the alerts open at the end of the report day, by site and kind', async () => {
    const report = await collect();
    expect(report.open.map((o) => [o.site, o.kind, o.alerts])).toEqual([
      ['A', 'offline', 1],
      ['B', 'infected', 1],
      ['B', 'protection-off', 1],
    ]);
    expect(openTotal(report)).toBe(3);
  });

  it("counts the report day's triggers and resolves of the alerter only", async () => {
    expect(await collect()).toMatchObject({ opened: 2, resolved: 1, rows: 5 });
  });

  it('skips and counts the lines it cannot use, and keeps the rest of their object', async () => {
    const report = await collect();
    expect(report.skipped).toBe(2);
    expect(report.open.some((o) => o.kind === 'protection-off')).toBe(true);
  });

  it('gives the time to resolve of the resolves in the window', async () => {
    expect((await collect()).resolveTimes).toEqual([
      { site: 'A', siteName: 'Name of A', resolved: 1, meanMinutes: 5820, p90Minutes: 5820 },
    ]);
  });

  it('reads only the days asked for, ending on the report day', async () => {
    const report = await collect(1);
    expect(report).toMatchObject({ firstDay: DAY, day: DAY, opened: 2, resolved: 1 });
    // The trigger of M1 is before the one day read: only what the day changed is seen.
    expect(report.open.map((o) => o.kind)).toEqual(['infected', 'protection-off']);
  });

  it('answers an empty report for a GSM without history', async () => {
    const report = await collectAlertReport(reader, {
      gsm: 'ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ',
      day: DAY,
      days: 30,
      limit: pLimit(4),
    });
    expect(report).toMatchObject({ rows: 0, skipped: 0, open: [], resolveTimes: [] });
  });
});
