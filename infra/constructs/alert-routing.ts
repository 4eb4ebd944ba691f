import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';
import { parseRouting, type RoutingDocument } from '../../lib/alerts/routing.js';

export interface AlertRoutingProps {
  /**
   * The routing document the parameter starts with (docs/operations.md, "Routing"); validated
   * here, every problem listed, so a bad one fails `cdk synth`.
   */
  readonly document: RoutingDocument;
}

/**
 * The alert routing document, in an SSM String parameter: an operator edits it with
 * `aws ssm put-parameter` without a deploy, SSM keeps every version
 * (`aws ssm get-parameter-history`), and the alerter reads it with a one-minute cache. One
 * parameter needs no AppConfig application, environment, deployment strategy or Lambda
 * extension layer; the document is validated by the alerter on every read (an invalid one
 * falls back to the default destinations) and by `npm run alerts -- route` before it is put.
 *
 * CloudFormation writes the parameter only when the document in the settings changes (it
 * compares templates, not the live value), so an edit made with put-parameter stays until
 * the setting itself changes.
 */
export class AlertRouting extends Construct {
  readonly parameter: ssm.StringParameter;

  constructor(scope: Construct, id: string, props: AlertRoutingProps) {
    super(scope, id);
    const document = parseRouting(props.document);
    this.parameter = new ssm.StringParameter(this, 'Parameter', {
      parameterName: `/${Stack.of(this).stackName}/alert-routing`,
      description:
        'Skywatch alert routing document (docs/operations.md, "Routing"); edit with aws ssm put-parameter',
      stringValue: JSON.stringify(document),
      // Standard (free, 4 KB) while it fits; Advanced (8 KB) for an MSP with many customers.
      tier: ssm.ParameterTier.INTELLIGENT_TIERING,
    });
  }

  /** GetParameter on this parameter alone: what reading the document takes. */
  grantGet(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({
      grantee,
      actions: ['ssm:GetParameter'],
      resourceArns: [this.parameter.parameterArn],
    });
  }
}
