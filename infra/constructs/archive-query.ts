import { Stack } from 'aws-cdk-lib';
import * as athena from 'aws-cdk-lib/aws-athena';
import * as glue from 'aws-cdk-lib/aws-glue';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

export interface ArchiveQueryProps {
  readonly bucket: s3.IBucket;
  readonly key: kms.IKey;
  /** Prefix of the bucket where Athena writes query results, ending in `/`. */
  readonly resultsPrefix: string;
}

/**
 * A Glue database for tables over the archive (Hive-style partitions under `reports/`,
 * created with the DDL in docs/operations.md) and an Athena workgroup whose query results
 * are KMS-encrypted in the archive bucket. The workgroup's settings are enforced so a query
 * cannot write results elsewhere or unencrypted.
 */
export class ArchiveQuery extends Construct {
  readonly database: glue.CfnDatabase;
  readonly workGroup: athena.CfnWorkGroup;

  constructor(scope: Construct, id: string, props: ArchiveQueryProps) {
    super(scope, id);
    if (!props.resultsPrefix.endsWith('/') || props.resultsPrefix.startsWith('/')) {
      throw new Error(
        `ArchiveQuery: resultsPrefix must be like 'athena-results/' (got '${props.resultsPrefix}').`,
      );
    }
    const stack = Stack.of(this);
    this.database = new glue.CfnDatabase(this, 'Database', {
      catalogId: stack.account,
      databaseInput: {
        name: `${stack.stackName.toLowerCase().replace(/[^a-z0-9_]/g, '_')}_archive`,
        description: 'Skywatch report archive (tables over s3://<report bucket>/reports/)',
      },
    });
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
