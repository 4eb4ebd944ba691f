import { Duration, FeatureFlags, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

/** Key prefixes of the report bucket; the functions' grants are scoped to them. */
export const BUCKET_PREFIXES = {
  reports: 'reports/',
  manifests: 'manifests/',
  state: 'state/',
  /** The report builder's HTML pages and seat CSVs. */
  pages: 'pages/',
  athenaResults: 'athena-results/',
} as const;

const ACCESS_LOGS_BY_POLICY = '@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy';

export interface ReportBucketProps {
  /** Days after which reports move to Standard-IA (S3 requires at least 30). */
  readonly transitionDays: number;
  /** Days after which reports and manifests expire; greater than transitionDays. */
  readonly expirationDays: number;
  /** Days a replaced or deleted object version is kept. */
  readonly noncurrentVersionExpirationDays: number;
  /** Days server access logs are kept. */
  readonly accessLogExpirationDays: number;
}

/**
 * The archive: versioned, KMS-encrypted with its own rotating key, public access blocked,
 * TLS 1.2+ only, lifecycle rules per prefix, and server access logs in a second bucket.
 */
export class ReportBucket extends Construct {
  readonly bucket: s3.Bucket;
  readonly key: kms.Key;
  readonly accessLogBucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: ReportBucketProps) {
    super(scope, id);
    if (!FeatureFlags.of(this).isEnabled(ACCESS_LOGS_BY_POLICY)) {
      // Without it CDK grants log delivery by ACL, which BucketOwnerEnforced forbids.
      throw new Error(`ReportBucket: needs the feature flag ${ACCESS_LOGS_BY_POLICY} (cdk.json).`);
    }
    if (props.transitionDays < 30) {
      throw new Error(
        `ReportBucket: transitionDays must be at least 30 (got ${props.transitionDays}).`,
      );
    }
    if (props.expirationDays <= props.transitionDays) {
      throw new Error(
        `ReportBucket: expirationDays (${props.expirationDays}) must be greater than transitionDays (${props.transitionDays}).`,
      );
    }

    this.accessLogBucket = new s3.Bucket(this, 'AccessLogs', {
      // Server access logging cannot deliver to a KMS-encrypted bucket.
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [
        { id: 'expire-access-logs', expiration: Duration.days(props.accessLogExpirationDays) },
      ],
    });
    Validations.of(this.accessLogBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'This bucket receives the report bucket access logs; logging it too would only log the logging.',
    });

    this.key = new kms.Key(this, 'Key', {
      description: 'Skywatch report archive',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const expire = Duration.days(props.expirationDays);
    const noncurrent = Duration.days(props.noncurrentVersionExpirationDays);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      encryption: s3.BucketEncryption.KMS,
      encryptionKey: this.key,
      bucketKeyEnabled: true,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      versioned: true,
      removalPolicy: RemovalPolicy.RETAIN,
      serverAccessLogsBucket: this.accessLogBucket,
      serverAccessLogsPrefix: 'report-bucket/',
      lifecycleRules: [
        {
          id: 'reports',
          prefix: BUCKET_PREFIXES.reports,
          transitions: [
            {
              storageClass: s3.StorageClass.INFREQUENT_ACCESS,
              transitionAfter: Duration.days(props.transitionDays),
            },
          ],
          expiration: expire,
        },
        { id: 'manifests', prefix: BUCKET_PREFIXES.manifests, expiration: expire },
        {
          // What the report fetcher builds its manifests from: one small record a site and day,
          // needed no longer than the manifests themselves (unlike cursors, below).
          id: 'report-day-records',
          prefix: `${BUCKET_PREFIXES.state}report-fetcher/`,
          expiration: expire,
        },
        {
          id: 'athena-results',
          prefix: BUCKET_PREFIXES.athenaResults,
          expiration: Duration.days(7),
        },
        {
          // State (cursors, de-duplication records) never expires: losing a cursor re-alerts.
          id: 'noncurrent-versions-and-uploads',
          noncurrentVersionExpiration: noncurrent,
          abortIncompleteMultipartUploadAfter: Duration.days(7),
        },
      ],
    });
  }
}
