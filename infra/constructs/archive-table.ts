import { Stack } from 'aws-cdk-lib';
import * as glue from 'aws-cdk-lib/aws-glue';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { ArchiveDataset } from './archive-datasets.js';
import { hiveColumns } from './hive-columns.js';

export interface ArchiveTableProps {
  readonly dataset: ArchiveDataset;
  readonly bucket: s3.IBucket;
  /** Key prefix of the archive in the bucket, ending in `/` (`reports/`). */
  readonly reportsPrefix: string;
  /** Glue database name (a token that references the database). */
  readonly databaseName: string;
  /** GSM keys the report fetcher archives: the values of the `gsm_key` partition. */
  readonly gsmKeys: readonly string[];
  /** Days the archive keeps a report: how far back the `date` partition reaches. */
  readonly retentionDays: number;
}

/**
 * The Hive JSON SerDe: it matches JSON keys to column and struct field names ignoring case (the
 * service's PascalCase keys fill the lower-case catalog names at every level), reads a JSON
 * number or boolean into a string column as its text, and fails the query on a malformed line
 * rather than reading it as nulls. Not the OpenX SerDe: Athena documents that its results can
 * be non-deterministic, and none of its extras (key mappings, dots in keys) is needed here.
 * Either reads gzip NDJSON by the objects' `.gz` suffix.
 */
export const JSON_SERDE = 'org.apache.hive.hcatalog.data.JsonSerDe';

/**
 * Partition columns and the Hive-style key segment each one reads, in key order. The GSM
 * column is `gsm_key`, not `gsm`: a GSM usage report has a top-level `GSM` field, and a table
 * cannot hold a data column and a partition column of one name.
 */
const GSM_AND_DATE = [
  { column: 'gsm_key', segment: 'gsm' },
  { column: 'date', segment: 'date' },
] as const;
const REPORT_TYPE = { column: 'type', segment: 'type' } as const;

/**
 * A Glue table over one archived dataset with partition projection: Athena computes the
 * partitions from the table properties, so a report is queryable as soon as it is written,
 * with no crawler, `MSCK REPAIR TABLE` or `ALTER TABLE ADD PARTITION`.
 */
export function archiveTable(scope: Construct, id: string, props: ArchiveTableProps) {
  const { dataset, bucket, gsmKeys, retentionDays } = props;
  if (gsmKeys.length === 0) throw new Error(`ArchiveTable ${id}: needs at least one GSM key.`);
  const location = `s3://${bucket.bucketName}/${props.reportsPrefix}${dataset.prefix}/`;
  const partitions = [...GSM_AND_DATE, ...(dataset.reportTypes ? [REPORT_TYPE] : [])];
  const template = `${location}${partitions.map((p) => `${p.segment}=\${${p.column}}/`).join('')}`;
  const columns = hiveColumns(dataset.record);
  const clash = columns.find((c) => partitions.some((p) => p.column === c.name));
  if (clash) {
    throw new Error(
      `ArchiveTable ${id}: column ${clash.name} clashes with the partition column of that name.`,
    );
  }

  return new glue.CfnTable(scope, id, {
    catalogId: Stack.of(scope).account,
    databaseName: props.databaseName,
    tableInput: {
      name: dataset.table,
      description: dataset.description,
      tableType: 'EXTERNAL_TABLE',
      partitionKeys: partitions.map((p) => ({ name: p.column, type: 'string' })),
      parameters: {
        EXTERNAL: 'TRUE',
        classification: 'json',
        compressionType: 'gzip',
        'projection.enabled': 'true',
        // An enum (not injected) so a query may span every GSM without naming one; the keys
        // are the configured ones, the only ones the fetcher writes.
        'projection.gsm_key.type': 'enum',
        'projection.gsm_key.values': gsmKeys.join(','),
        'projection.date.type': 'date',
        'projection.date.format': 'yyyy-MM-dd',
        // Relative, so the window moves by itself; reports expire after retentionDays anyway.
        'projection.date.range': `NOW-${retentionDays}DAYS,NOW`,
        'projection.date.interval': '1',
        'projection.date.interval.unit': 'DAYS',
        ...(dataset.reportTypes
          ? {
              'projection.type.type': 'enum',
              'projection.type.values': dataset.reportTypes.join(','),
            }
          : {}),
        'storage.location.template': template,
      },
      storageDescriptor: {
        location,
        columns,
        inputFormat: 'org.apache.hadoop.mapred.TextInputFormat',
        outputFormat: 'org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat',
        compressed: true,
        serdeInfo: { serializationLibrary: JSON_SERDE },
      },
    },
  });
}
