import { type CfnResource, Stack, Validations } from 'aws-cdk-lib';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type { IConstruct } from 'constructs';
import type { SkywatchFunction } from './constructs/skywatch-function.js';

/**
 * Grants through CDK's grant* calls, scoped to one key prefix, and acknowledges in the same
 * place the cdk-nag IAM5 findings those calls produce: their action wildcards are CDK's fixed
 * action sets and their resource wildcard is the prefix itself, never the whole bucket.
 */
export function grantPrefixRead(fn: SkywatchFunction, bucket: s3.IBucket, prefix: string): void {
  bucket.grantRead(fn.function, `${prefix}*`);
  acknowledgeWildcards(fn.role, prefix, bucket, [
    [
      'Action::s3:GetObject*',
      'CDK grantRead action set: GetObject with its version/attributes reads, on the prefix only.',
    ],
    [
      'Action::s3:GetBucket*',
      'CDK grantRead action set: bucket metadata (location, versioning) the SDK may need.',
    ],
    [
      'Action::s3:List*',
      'CDK grantRead action set: listing key names to find existing objects (a re-run rewrites the same keys); object content stays limited to the prefix.',
    ],
  ]);
}

export function grantPrefixWrite(fn: SkywatchFunction, bucket: s3.IBucket, prefix: string): void {
  bucket.grantPut(fn.function, `${prefix}*`);
  acknowledgeWildcards(fn.role, prefix, bucket, [
    [
      'Action::s3:Abort*',
      'CDK grantPut action set: aborting multipart uploads of streamed gzip writes, on the prefix only.',
    ],
    ['Action::kms:GenerateDataKey*', KMS_DATA_KEYS],
    [
      'Action::kms:ReEncrypt*',
      'CDK grantPut action set for SSE-KMS writes, on the archive key only (named by ARN).',
    ],
  ]);
}

export function grantPrefixDelete(fn: SkywatchFunction, bucket: s3.IBucket, prefix: string): void {
  bucket.grantDelete(fn.function, `${prefix}*`);
  acknowledgeWildcards(fn.role, prefix, bucket, [
    [
      'Action::s3:DeleteObject*',
      'CDK grantDelete action set: releasing a claim or de-duplication record after a failed attempt, on the prefix only.',
    ],
  ]);
}

export function grantTopicPublish(fn: SkywatchFunction, topic: sns.ITopic): void {
  topic.grantPublish(fn.function);
  acknowledge(fn.role, 'Action::kms:GenerateDataKey*', KMS_DATA_KEYS);
}

const KMS_DATA_KEYS =
  'CDK grantPut/grantPublish action set: data keys to encrypt objects or messages, on the archive or topic key only (named by ARN).';

type Finding = readonly [finding: string, reason: string];

function acknowledgeWildcards(
  role: IConstruct,
  prefix: string,
  bucket: s3.IBucket,
  findings: readonly Finding[],
): void {
  for (const [finding, reason] of findings) acknowledge(role, finding, reason);
  const logicalId = Stack.of(bucket).resolve((bucket.node.defaultChild as CfnResource).logicalId);
  acknowledge(
    role,
    `Resource::<${logicalId}.Arn>/${prefix}*`,
    `Objects under ${prefix} only: the part of the archive this function reads or writes, not the whole bucket.`,
  );
}

const acknowledged = new WeakMap<IConstruct, Set<string>>();

/** Acknowledges one cdk-nag IAM5 finding once per construct. */
export function acknowledge(scope: IConstruct, finding: string, reason: string): void {
  const seen = acknowledged.get(scope) ?? new Set<string>();
  if (seen.has(finding)) return;
  seen.add(finding);
  acknowledged.set(scope, seen);
  Validations.of(scope).acknowledge({ id: `AwsSolutions-IAM5[${finding}]`, reason });
}
