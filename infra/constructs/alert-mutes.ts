import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';
import { NO_MUTES } from '../../lib/alerts/mutes.js';

/**
 * The maintenance windows (docs/operations.md, "Maintenance windows"), in an SSM String
 * parameter beside the routing document's (infra/constructs/alert-routing.ts): written by
 * `npm run alerts -- mute`, read by the alerter with the same one-minute cache. It starts with
 * no window; CloudFormation writes it only when this starting value changes, so windows an
 * operator set survive every deploy.
 */
export class AlertMutes extends Construct {
  readonly parameter: ssm.StringParameter;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.parameter = new ssm.StringParameter(this, 'Parameter', {
      parameterName: `/${Stack.of(this).stackName}/alert-mutes`,
      description:
        'Skywatch maintenance windows (docs/operations.md, "Maintenance windows"); edit with npm run alerts -- mute',
      stringValue: JSON.stringify(NO_MUTES),
      // Standard (free, 4 KB) while it fits; ended windows are removed on every write.
      tier: ssm.ParameterTier.INTELLIGENT_TIERING,
    });
  }

  /** GetParameter on this parameter alone: what reading the windows takes. */
  grantGet(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({
      grantee,
      actions: ['ssm:GetParameter'],
      resourceArns: [this.parameter.parameterArn],
    });
  }
}
