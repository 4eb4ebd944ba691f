import { RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

export interface SecureTopicProps {
  readonly displayName: string;
  /** @default - no e-mail subscription */
  readonly email?: string;
  /**
   * Let CloudWatch alarms of this account publish: they need the topic key.
   * @default false
   */
  readonly allowCloudWatchAlarms?: boolean;
}

/** An SNS topic encrypted with its own rotating KMS key, TLS-only, with an optional e-mail. */
export class SecureTopic extends Construct {
  readonly topic: sns.Topic;
  readonly key: kms.Key;

  constructor(scope: Construct, id: string, props: SecureTopicProps) {
    super(scope, id);
    if (props.displayName.length === 0 || props.displayName.length > 100) {
      throw new Error(`SecureTopic ${id}: displayName must be 1–100 characters.`);
    }

    this.key = new kms.Key(this, 'Key', {
      description: `Skywatch ${props.displayName} topic`,
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.topic = new sns.Topic(this, 'Topic', {
      displayName: props.displayName,
      masterKey: this.key,
      enforceSSL: true,
    });
    if (props.email) {
      const email = this.topic.addSubscription(new subscriptions.EmailSubscription(props.email));
      Validations.of(email).acknowledge({
        id: 'Serverless-SNSRedrivePolicy',
        reason:
          'An e-mail subscription hands each message to the mail service of SNS; what fails then is the mailbox (a bounce, a full inbox), which SNS does not redrive, so a dead-letter queue would stay empty. Consumers that need redrive subscribe their own queue or function.',
      });
    }
    if (props.allowCloudWatchAlarms) {
      const account = Stack.of(this).account;
      const cloudWatch = new iam.ServicePrincipal('cloudwatch.amazonaws.com').withConditions({
        StringEquals: { 'aws:SourceAccount': account },
      });
      this.topic.grantPublish(cloudWatch);
    }
  }
}
