import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { arn, logicalId, ref, type Synth, synth } from './helpers.js';

let s: Synth;
beforeAll(() => {
  s = synth();
});

const resource = (id: string) => s.template.toJSON().Resources[id];

describe('ReportBucket', () => {
  it('blocks all public access and enforces bucket-owner object ownership', () => {
    s.template.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: Match.objectLike({}),
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      VersioningConfiguration: { Status: 'Enabled' },
    });
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

  it('refuses requests without TLS 1.2 in the bucket policy', () => {
    s.template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: ref(s.stack.archive.bucket),
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
          Match.objectLike({
            Effect: 'Deny',
            Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } },
          }),
        ]),
      },
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
    const { template } = synth({
      reportTransitionDays: 60,
      reportExpirationDays: 730,
      noncurrentVersionExpirationDays: 7,
      accessLogExpirationDays: 30,
    });
    template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({
            Id: 'reports',
            ExpirationInDays: 730,
            Transitions: [{ StorageClass: 'STANDARD_IA', TransitionInDays: 60 }],
          }),
          Match.objectLike({ NoncurrentVersionExpiration: { NoncurrentDays: 7 } }),
        ]),
      },
    });
    template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: [Match.objectLike({ ExpirationInDays: 30 })] },
    });
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
