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
  /** GSM keys the report fetcher archives: the values of the `gsm` partition. */
  readonly gsmKeys: readonly string[];
  /** Days the archive keeps a report: how far back the `date` partition reaches. */
  readonly retentionDays: number;
}

/**
 * OpenX JSON SerDe rather than the Hive one: it documents `case.insensitive`, which matches the
 * service's PascalCase keys to the lower-case catalog names at every struct level, and
 * `ignore.malformed.json`, left off so a corrupt line fails the query instead of reading as
 * nulls. Either reads gzip NDJSON by the objects' `.gz` suffix.
 */
export const JSON_SERDE = 'org.openx.data.jsonserde.JsonSerDe';

/**
 * A Glue table over one archived dataset with partition projection: Athena computes the
 * partitions from the table properties, so a report is queryable as soon as it is written,
 * with no crawler, `MSCK REPAIR TABLE` or `ALTER TABLE ADD PARTITION`.
 */
export function archiveTable(scope: Construct, id: string, props: ArchiveTableProps) {
  const { dataset, bucket, gsmKeys, retentionDays } = props;
  if (gsmKeys.length === 0) throw new Error(`ArchiveTable ${id}: needs at least one GSM key.`);
  const location = `s3://${bucket.bucketName}/${props.reportsPrefix}${dataset.prefix}/`;
  const partitions = ['gsm', 'date', ...(dataset.reportTypes ? ['type'] : [])];
  const template = `${location}${partitions.map((p) => `${p}=\${${p}}/`).join('')}`;

  return new glue.CfnTable(scope, id, {
    catalogId: Stack.of(scope).account,
    databaseName: props.databaseName,
    tableInput: {
      name: dataset.table,
      description: dataset.description,
      tableType: 'EXTERNAL_TABLE',
      partitionKeys: partitions.map((name) => ({ name, type: 'string' })),
      parameters: {
        EXTERNAL: 'TRUE',
        classification: 'json',
        compressionType: 'gzip',
        'projection.enabled': 'true',
        // An enum (not injected) so a query may span every GSM without naming one; the keys
        // are the configured ones, the only ones the fetcher writes.
        'projection.gsm.type': 'enum',
        'projection.gsm.values': gsmKeys.join(','),
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
        columns: hiveColumns(dataset.record),
        inputFormat: 'org.apache.hadoop.mapred.TextInputFormat',
        outputFormat: 'org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat',
        compressed: true,
        serdeInfo: {
          serializationLibrary: JSON_SERDE,
          parameters: { 'case.insensitive': 'TRUE', 'ignore.malformed.json': 'FALSE' },
        },
      },
    },
  });
}
