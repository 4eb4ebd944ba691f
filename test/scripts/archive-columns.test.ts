import { describe, expect, it } from 'vitest';
import { ARCHIVE_DATASETS } from '../../infra/constructs/archive-datasets.js';
import { hiveColumns } from '../../infra/constructs/hive-columns.js';
import { duckColumns } from '../../scripts/query/archive-columns.js';

describe('Function: duckColumns', () => {
  it.each(ARCHIVE_DATASETS.map((d) => [d.table, d] as const))(
    'gives %s the Glue table columns, in order',
    (_table, dataset) => {
      expect(duckColumns(dataset).map((c) => c.name)).toEqual(
        hiveColumns(dataset.record).map((c) => c.name),
      );
    },
  );

  it('maps each Hive type to its DuckDB type, structs keeping the service field names', () => {
    const dataset = ARCHIVE_DATASETS.find((d) => d.table === 'site_usage');
    if (!dataset) throw new Error('no site_usage dataset');
    const site = duckColumns(dataset).find((c) => c.name === 'site');
    expect(site?.key).toBe('Site');
    expect(site?.type).toContain('"TotalEndpoints" BIGINT');
    expect(site?.type).toMatch(/^STRUCT\(/);
  });
});
