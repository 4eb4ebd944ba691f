import { describe, expect, it } from 'vitest';
import { size, summariseArchive } from '../../scripts/local/archive-summary.js';

const G = 'GSM1-AAAA';
const dnsp = (date: string, site: string, bytes: number) => ({
  key: `reports/dnsp-usage/gsm=${G}/date=${date}/type=DevicesSeenInLast30Days/site=${site}/report.ndjson.gz`,
  size: bytes,
});

describe('Function: summariseArchive (npm start)', () => {
  it('lists each object of a small dataset with its size, below the dataset total', () => {
    const lines = summariseArchive(
      [
        { key: `manifests/report-fetcher/date=2026-06-01/gsm=${G}.json`, size: 3000 },
        {
          key: `reports/agent-status/gsm=${G}/date=2026-06-03/snapshot.ndjson.gz`,
          size: 2_500_000,
        },
      ],
      'bucket',
      G,
    );
    expect(lines[0]).toBe(`2 objects archived in s3://bucket (GSM ${G}):`);
    expect(lines[1]).toMatch(/^ {2}manifests +1 object +2\.9 KiB {2}2026-06-01$/);
    expect(lines[2]).toMatch(/^ {6}report-fetcher\/date=2026-06-01\/gsm=…\.json +2\.9 KiB$/);
    expect(lines[3]).toMatch(/^ {2}agent-status +1 object +2\.4 MiB {2}2026-06-03$/);
    expect(lines[4]).toMatch(/^ {6}date=2026-06-03\/snapshot\.ndjson\.gz +2\.4 MiB$/);
    expect(lines).toHaveLength(5);
  });

  it('summarises a large dataset a line per date, and counts state records apart', () => {
    const objects = [
      ...['A', 'B', 'C', 'D'].map((s, i) => dnsp('2026-06-01', s, 300 + i)),
      ...['A', 'B', 'C', 'D'].map((s, i) => dnsp('2026-06-02', s, 400 + i)),
      { key: `state/report-fetcher/gsm=${G}/date=2026-06-01/run.json`, size: 99 },
    ];
    const lines = summariseArchive(objects, 'bucket', G);
    expect(lines).toEqual([
      `8 objects archived in s3://bucket (GSM ${G}):`,
      expect.stringMatching(/^ {2}dnsp-usage +8 objects +2\.7 KiB {2}2026-06-01 … 2026-06-02$/),
      expect.stringMatching(/^ {6}date=2026-06-01 +4 objects +1\.2 KiB {2}\(300 B–303 B each\)$/),
      expect.stringMatching(/^ {6}date=2026-06-02 +4 objects +1\.6 KiB {2}\(400 B–403 B each\)$/),
      'and 1 state record in state/ (cursors, claims, report day records)',
    ]);
  });

  it('writes sizes in B, KiB or MiB', () => {
    expect([size(0), size(1023), size(1024), size(1024 * 1024 * 3)]).toEqual([
      '0 B',
      '1023 B',
      '1.0 KiB',
      '3.0 MiB',
    ]);
  });
});
