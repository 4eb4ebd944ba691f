import {
  type CfnResource,
  CustomResource,
  Duration,
  RemovalPolicy,
  Stack,
  Validations,
} from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { acknowledge } from '../grants.js';
import { SkywatchFunction } from './skywatch-function.js';

export interface PageLinkKeyProps {
  /** The key resource's handler entry (functions/page-link-key/handler.ts), absolute. */
  readonly entry: string;
  /** Raised by one to rotate: a new key pair and a new CloudFront public key. */
  readonly keyVersion: number;
  readonly alarmTopic: sns.ITopic;
  readonly logRetention: logs.RetentionDays;
  /** The handler's environment (log level); names only, never a secret. */
  readonly environment: Readonly<Record<string, string>>;
}

/**
 * The signing key of the report links, made at deploy time: a custom resource generates an
 * RSA 2048 pair (functions/page-link-key), keeps the private key in a secret of this stack and
 * answers the public key, which becomes the CloudFront public key of the key group the
 * distribution trusts. The private key never appears in the template.
 */
export class PageLinkKey extends Construct {
  /** Encrypts the private key alone: the stack's other secrets keep their key to themselves. */
  readonly key: kms.Key;
  readonly secret: secretsmanager.Secret;
  readonly handler: SkywatchFunction;
  readonly publicKey: cloudfront.PublicKey;
  readonly keyGroup: cloudfront.KeyGroup;

  constructor(scope: Construct, id: string, props: PageLinkKeyProps) {
    super(scope, id);
    if (!Number.isInteger(props.keyVersion) || props.keyVersion < 1) {
      throw new Error(
        `PageLinkKey: keyVersion must be a whole number from 1 (got ${props.keyVersion}).`,
      );
    }
    this.key = new kms.Key(this, 'Key', {
      description: 'Skywatch report links signing key',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.secret = new secretsmanager.Secret(this, 'PrivateKey', {
      description: 'Skywatch report links: the private key CloudFront signed URLs are made with',
      encryptionKey: this.key,
      // Made again on the next deploy; links signed with it die with the key group anyway.
      removalPolicy: RemovalPolicy.DESTROY,
      secretObjectValue: {},
    });
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'A rotation must replace the CloudFront public key the key group trusts as well; the stack does both when the reportLinkKeyVersion setting is raised (docs/operations.md, "Report links"), which a Secrets Manager rotation function cannot.',
    });

    this.handler = new SkywatchFunction(this, 'Handler', {
      entry: props.entry,
      serviceName: 'page-link-key',
      description: 'Makes the report links signing key pair at deploy time (custom resource)',
      timeout: Duration.minutes(1),
      memorySize: 256,
      environment: props.environment,
      alarmTopic: props.alarmTopic,
      logRetention: props.logRetention,
      failuresKeptBy:
        'CloudFormation invokes it through the custom resource provider, which fails the deployment (and rolls it back) on an error.',
    });
    this.secret.grantRead(this.handler.function);
    this.secret.grantWrite(this.handler.function);
    acknowledge(
      this.handler.role,
      'Action::kms:GenerateDataKey*',
      'Secret grantWrite action set: data keys to encrypt the new secret version, on the link key only (named by ARN).',
    );
    acknowledge(
      this.handler.role,
      'Action::kms:ReEncrypt*',
      'Secret grantWrite action set for a KMS-encrypted secret, on the link key only (named by ARN).',
    );

    const provider = this.provider(props);
    const resource = new CustomResource(this, 'KeyPair', {
      serviceToken: provider.serviceToken,
      resourceType: 'Custom::SkywatchPageLinkKey',
      properties: { SecretArn: this.secret.secretArn, KeyVersion: String(props.keyVersion) },
    });
    // A new version is a new public key resource: CloudFront keeps a public key's encoding.
    this.publicKey = new cloudfront.PublicKey(this, `PublicKeyV${props.keyVersion}`, {
      encodedKey: resource.getAttString('PublicKeyPem'),
      comment: `Skywatch report links, key version ${props.keyVersion}`,
    });
    this.keyGroup = new cloudfront.KeyGroup(this, 'KeyGroup', {
      items: [this.publicKey],
      comment: 'Skywatch report links: the keys signed URLs may be made with',
    });
  }

  /** The CDK provider framework, with its own role and log group instead of managed ones. */
  private provider(props: PageLinkKeyProps): cr.Provider {
    const logGroup = new logs.LogGroup(this, 'ProviderLogs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const role = new iam.Role(this, 'ProviderRole', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'Skywatch page-link-key custom resource provider',
    });
    logGroup.grantWrite(role);
    const provider = new cr.Provider(this, 'Provider', {
      onEventHandler: this.handler.function,
      frameworkOnEventRole: role,
      logGroup,
    });
    acknowledge(
      role,
      `Resource::<${logicalIdOf(this.handler.function)}.Arn>:*`,
      'CDK provider framework grantInvoke: the key handler function and its versions, nothing else.',
    );
    const framework = provider.node.findAll().find((c) => c instanceof lambda.Function);
    if (framework) acknowledgeFramework(framework);
    return provider;
  }
}

const logicalIdOf = (fn: lambda.IFunction) =>
  Stack.of(fn).resolve((fn.node.defaultChild as CfnResource).logicalId) as string;

/** The provider framework's function is CDK's: what cdk-nag finds in it, and why it stands. */
function acknowledgeFramework(fn: lambda.Function): void {
  const findings: [string, string][] = [
    [
      'Serverless-LambdaDLQ',
      'CloudFormation invokes the provider framework once per deployment event and the framework reports any failure back to CloudFormation, which fails and rolls back the deployment; a dead-letter queue would hold an event nobody can replay.',
    ],
    [
      'Serverless-LambdaDefaultMemorySize',
      "CDK's provider framework only relays one CloudFormation event to the key handler (256 MB, which does the work) and its answer back; CDK sizes it.",
    ],
    [
      'Serverless-LambdaTracing',
      'CDK\'s provider framework only relays the event; the key handler it invokes is actively traced, and tracing the relay would need an X-Ray policy on "*" for one call a deployment.',
    ],
  ];
  for (const [id, reason] of findings) Validations.of(fn).acknowledge({ id, reason });
}
