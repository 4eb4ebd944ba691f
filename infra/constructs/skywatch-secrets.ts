import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';

/**
 * The one field of the credentials secret generated at deploy time; operators add the service
 * credentials (`clientId`, `clientSecret`, `username`/`password` or `subjectToken`, see
 * lib/aws/secret-shapes.ts and docs/deploy.md) next to it.
 */
export const WEBHOOK_SIGNING_SECRET_FIELD = 'webhookSigningSecret';

/**
 * The two Secrets Manager secrets, encrypted with their own rotating KMS key:
 * - credentials: client id/secret, username/password (or token-exchange settings) and the
 *   webhook signing secret; written by operators only.
 * - token: access token, refresh token, expiry, scopes; written only by the token refresher.
 * Neither value ever appears in the template: the credentials start as a generated signing
 * secret alone, the token secret as `{}` (from which the refresher bootstraps).
 */
export class SkywatchSecrets extends Construct {
  readonly key: kms.Key;
  readonly credentials: secretsmanager.Secret;
  readonly token: secretsmanager.Secret;
  /** Alert destinations (Slack, Teams, PagerDuty, webhook): URLs and keys, set by operators. */
  readonly notifier: secretsmanager.Secret;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.key = new kms.Key(this, 'Key', {
      description: 'Skywatch service credentials and tokens',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.credentials = new secretsmanager.Secret(this, 'Credentials', {
      description: 'Skywatch service credentials and the webhook signing secret (set by operators)',
      encryptionKey: this.key,
      removalPolicy: RemovalPolicy.RETAIN,
      generateSecretString: {
        secretStringTemplate: '{}',
        generateStringKey: WEBHOOK_SIGNING_SECRET_FIELD,
        // A Standard Webhooks secret without its `whsec_` prefix (which Secrets Manager cannot
        // add, and lib/webhooks does not require): 48 letters and digits are base64, with no
        // padding, of 36 bytes. Punctuation would include characters outside base64.
        passwordLength: 48,
        excludePunctuation: true,
      },
    });
    Validations.of(this.credentials).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Client credentials and the password are issued by the Skywatch service and the signing secret is shared with the shop; neither can be rotated by a Secrets Manager rotation function, operators rotate them (docs/deploy.md).',
    });

    this.token = new secretsmanager.Secret(this, 'Token', {
      description: 'Skywatch OAuth tokens; written only by the token refresher',
      encryptionKey: this.key,
      removalPolicy: RemovalPolicy.DESTROY,
      secretObjectValue: {},
    });
    Validations.of(this.token).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The token refresher rotates this secret itself on its schedule (refresh grant with refresh-token rotation), every few minutes.',
    });

    this.notifier = new secretsmanager.Secret(this, 'Notifier', {
      description: 'Skywatch alert destinations: webhook URLs, PagerDuty routing key (operators)',
      encryptionKey: this.key,
      removalPolicy: RemovalPolicy.RETAIN,
      secretObjectValue: {},
    });
    Validations.of(this.notifier).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Webhook URLs and the PagerDuty routing key are issued by Slack, Teams and PagerDuty; operators rotate them there (docs/operations.md).',
    });
  }
}
