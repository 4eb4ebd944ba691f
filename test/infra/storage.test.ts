import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { arn, type Json, logicalId, ref, type Synth, synth } from './helpers.js';

let s: Synth;
beforeAll(() => {
  s = synth();
});

const resource = (id: string) => s.template.toJSON().Resources[id];

const properties = (bucket: IConstruct) => resource(logicalId(bucket)).Properties;

/** The one bucket policy attached to a bucket. */
function bucketPolicy(bucket: IConstruct): Json {
  const policies = Object.values(s.template.findResources('AWS::S3::BucketPolicy')).filter(
    (p) => JSON.stringify(p.Properties.Bucket) === JSON.stringify(ref(bucket)),
  );
  expect(policies).toHaveLength(1);
  return policies[0]?.Properties.PolicyDocument;
}

/** The statements CDK writes for `enforceSSL` and `minimumTLSVersion: 1.2`. */
const tlsOnly = (bucket: IConstruct) => {
  const resources = [arn(bucket), { 'Fn::Join': ['', [arn(bucket), '/*']] }];
  const deny = (condition: Json) => ({
    Action: 's3:*',
    Condition: condition,
    Effect: 'Deny',
    Principal: { AWS: '*' },
    Resource: resources,
  });
  return [
    deny({ Bool: { 'aws:SecureTransport': 'false' } }),
    deny({ NumericLessThan: { 's3:TlsVersion': 1.2 } }),
  ];
};

const BLOCK_ALL = {
  BlockPublicAcls: true,
  BlockPublicPolicy: true,
  IgnorePublicAcls: true,
  RestrictPublicBuckets: true,
};
const OWNER_ENFORCED = { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] };

describe('ReportBucket', () => {
  it('creates two buckets: the archive and its access-log bucket', () => {
    expect(Object.keys(s.template.findResources('AWS::S3::Bucket')).sort()).toEqual(
      [logicalId(s.stack.archive.bucket), logicalId(s.stack.archive.accessLogBucket)].sort(),
    );
  });

  it('blocks all public access to the archive, enforces bucket-owner ownership and versions it', () => {
    const archive = properties(s.stack.archive.bucket);
    expect(archive.PublicAccessBlockConfiguration).toEqual(BLOCK_ALL);
    expect(archive.OwnershipControls).toEqual(OWNER_ENFORCED);
    expect(archive.VersioningConfiguration).toEqual({ Status: 'Enabled' });
  });

  it('blocks all public access to the access-log bucket and enforces bucket-owner ownership', () => {
    const logs = properties(s.stack.archive.accessLogBucket);
    expect(logs.PublicAccessBlockConfiguration).toEqual(BLOCK_ALL);
    expect(logs.OwnershipControls).toEqual(OWNER_ENFORCED);
  });

  it('sets nothing on either bucket beyond what these tests assert', () => {
    expect(Object.keys(properties(s.stack.archive.bucket)).sort()).toEqual([
      'BucketEncryption',
      'LifecycleConfiguration',
      'LoggingConfiguration',
      'OwnershipControls',
      'PublicAccessBlockConfiguration',
      'VersioningConfiguration',
    ]);
    expect(Object.keys(properties(s.stack.archive.accessLogBucket)).sort()).toEqual([
      'BucketEncryption',
      'LifecycleConfiguration',
      'OwnershipControls',
      'PublicAccessBlockConfiguration',
    ]);
  });

  it('encrypts the archive with its own rotating KMS key and a bucket key', () => {
    s.template.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [
          {
            BucketKeyEnabled: true,
            ServerSideEncryptionByDefault: {
              SSEAlgorithm: 'aws:kms',
              KMSMasterKeyID: arn(s.stack.archive.key),
            },
          },
        ],
      },
    });
    expect(resource(logicalId(s.stack.archive.key)).Properties.EnableKeyRotation).toBe(true);
  });

  it('refuses requests to the archive without TLS 1.2 and allows nothing by bucket policy', () => {
    expect(bucketPolicy(s.stack.archive.bucket)).toEqual({
      Version: '2012-10-17',
      Statement: tlsOnly(s.stack.archive.bucket),
    });
  });

  it('refuses requests to the access-log bucket without TLS 1.2 and lets only S3 logging of the archive write, under its prefix', () => {
    const { bucket, accessLogBucket } = s.stack.archive;
    expect(bucketPolicy(accessLogBucket)).toEqual({
      Version: '2012-10-17',
      Statement: [
        ...tlsOnly(accessLogBucket),
        {
          Action: 's3:PutObject',
          Condition: {
            ArnLike: { 'aws:SourceArn': arn(bucket) },
            StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
          },
          Effect: 'Allow',
          Principal: { Service: 'logging.s3.amazonaws.com' },
          Resource: { 'Fn::Join': ['', [arn(accessLogBucket), '/report-bucket/*']] },
        },
      ],
    });
  });

  it('logs server access to a separate, S3-encrypted bucket', () => {
    const bucket = resource(logicalId(s.stack.archive.bucket));
    expect(bucket.Properties.LoggingConfiguration).toEqual({
      DestinationBucketName: ref(s.stack.archive.accessLogBucket),
      LogFilePrefix: 'report-bucket/',
    });
    const logBucket = resource(logicalId(s.stack.archive.accessLogBucket));
    expect(logBucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration).toEqual([
      { ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } },
    ]);
    expect(logBucket.Properties.LifecycleConfiguration.Rules).toEqual([
      { Id: 'expire-access-logs', ExpirationInDays: 90, Status: 'Enabled' },
    ]);
  });

  it('moves reports to Standard-IA and expires reports and manifests, by default after 30 and 400 days', () => {
    const rules = resource(logicalId(s.stack.archive.bucket)).Properties.LifecycleConfiguration
      .Rules;
    expect(rules).toEqual(
      expect.arrayContaining([
        {
          Id: 'reports',
          Prefix: 'reports/',
          Status: 'Enabled',
          ExpirationInDays: 400,
          Transitions: [{ StorageClass: 'STANDARD_IA', TransitionInDays: 30 }],
        },
        { Id: 'manifests', Prefix: 'manifests/', Status: 'Enabled', ExpirationInDays: 400 },
      ]),
    );
  });

  it("expires the report fetcher's day records with the manifests built from them", () => {
    const rules = resource(logicalId(s.stack.archive.bucket)).Properties.LifecycleConfiguration
      .Rules;
    expect(rules).toContainEqual({
      Id: 'report-day-records',
      Prefix: 'state/report-fetcher/',
      Status: 'Enabled',
      ExpirationInDays: 400,
    });
  });

  it('expires noncurrent versions and abandoned uploads but never current state records', () => {
    const rules = resource(logicalId(s.stack.archive.bucket)).Properties.LifecycleConfiguration
      .Rules;
    expect(rules).toContainEqual({
      Id: 'noncurrent-versions-and-uploads',
      Status: 'Enabled',
      NoncurrentVersionExpiration: { NoncurrentDays: 30 },
      AbortIncompleteMultipartUpload: { DaysAfterInitiation: 7 },
    });
    expect(rules.filter((r: { Prefix?: string }) => r.Prefix === 'state/')).toEqual([]);
  });

  it('takes transition, expiry and retention days from the settings', () => {
    const { stack, template } = synth({
      reportTransitionDays: 60,
      reportExpirationDays: 730,
      noncurrentVersionExpirationDays: 7,
      accessLogExpirationDays: 30,
    });
    const rules = (bucket: IConstruct) =>
      template.toJSON().Resources[logicalId(bucket)].Properties.LifecycleConfiguration.Rules;
    expect(rules(stack.archive.bucket)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Id: 'reports',
          ExpirationInDays: 730,
          Transitions: [{ StorageClass: 'STANDARD_IA', TransitionInDays: 60 }],
        }),
        expect.objectContaining({ Id: 'manifests', ExpirationInDays: 730 }),
        expect.objectContaining({ NoncurrentVersionExpiration: { NoncurrentDays: 7 } }),
      ]),
    );
    expect(rules(stack.archive.accessLogBucket)).toEqual([
      { Id: 'expire-access-logs', ExpirationInDays: 30, Status: 'Enabled' },
    ]);
  });

  it('retains the archive, its key and the access logs when the stack is deleted', () => {
    for (const c of [
      s.stack.archive.bucket,
      s.stack.archive.key,
      s.stack.archive.accessLogBucket,
    ]) {
      expect(resource(logicalId(c)).DeletionPolicy).toBe('Retain');
    }
  });
});
