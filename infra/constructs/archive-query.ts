import { Stack } from 'aws-cdk-lib';
import * as athena from 'aws-cdk-lib/aws-athena';
import * as glue from 'aws-cdk-lib/aws-glue';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { ARCHIVE_DATASETS } from './archive-datasets.js';
import { archiveTable } from './archive-table.js';

export interface ArchiveQueryProps {
  readonly bucket: s3.IBucket;
  readonly key: kms.IKey;
  /** Prefix of the bucket where Athena writes query results, ending in `/`. */
  readonly resultsPrefix: string;
  /** Prefix of the bucket the archive is written under, ending in `/` (`reports/`). */
  readonly reportsPrefix: string;
  /** GSM keys the report fetcher archives. */
  readonly gsmKeys: readonly string[];
  /** Days a report is kept: how far back the tables' date partitions reach. */
  readonly retentionDays: number;
}

/**
 * A Glue database with one partition-projected table per archived dataset (Hive-style
 * partitions under `reports/`, queryable right after deploy), and an Athena workgroup whose
 * query results are KMS-encrypted in the archive bucket. The workgroup's settings are
 * enforced so a query cannot write results elsewhere or unencrypted.
 */
export class ArchiveQuery extends Construct {
  readonly database: glue.CfnDatabase;
  readonly workGroup: athena.CfnWorkGroup;
  /** The tables by name (`agent_status`, `site_usage`, …). */
  readonly tables: Record<string, glue.CfnTable>;

  constructor(scope: Construct, id: string, props: ArchiveQueryProps) {
    super(scope, id);
    for (const [name, prefix, example] of [
      ['resultsPrefix', props.resultsPrefix, 'athena-results/'],
      ['reportsPrefix', props.reportsPrefix, 'reports/'],
    ] as const) {
      if (!prefix.endsWith('/') || prefix.startsWith('/')) {
        throw new Error(`ArchiveQuery: ${name} must be like '${example}' (got '${prefix}').`);
      }
    }
    const stack = Stack.of(this);
    this.database = new glue.CfnDatabase(this, 'Database', {
      catalogId: stack.account,
      databaseInput: {
        name: `${stack.stackName.toLowerCase().replace(/[^a-z0-9_]/g, '_')}_archive`,
        description: 'Skywatch report archive (tables over s3://<report bucket>/reports/)',
      },
    });
    this.tables = {};
    for (const dataset of ARCHIVE_DATASETS) {
      this.tables[dataset.table] = archiveTable(this, `${pascalCase(dataset.table)}Table`, {
        dataset,
        bucket: props.bucket,
        reportsPrefix: props.reportsPrefix,
        // The reference makes CloudFormation create the database first.
        databaseName: this.database.ref,
        gsmKeys: props.gsmKeys,
        retentionDays: props.retentionDays,
      });
    }
    this.workGroup = new athena.CfnWorkGroup(this, 'WorkGroup', {
      name: `${stack.stackName}-archive`,
      description: 'Queries over the Skywatch report archive',
      state: 'ENABLED',
      recursiveDeleteOption: true,
      workGroupConfiguration: {
        enforceWorkGroupConfiguration: true,
        publishCloudWatchMetricsEnabled: true,
        bytesScannedCutoffPerQuery: 10 * 1024 ** 3,
        resultConfiguration: {
          outputLocation: `s3://${props.bucket.bucketName}/${props.resultsPrefix}`,
          encryptionConfiguration: {
            encryptionOption: 'SSE_KMS',
            kmsKey: props.key.keyArn,
          },
        },
      },
    });
  }
}

/** `agent_status` → `AgentStatus`, for construct ids. */
const pascalCase = (name: string) =>
  name.replace(/(^|_)([a-z])/g, (_match, _sep, letter: string) => letter.toUpperCase());
