import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';

export interface DocumentParameterProps {
  /** The parameter's name under the stack's: `/<stackName>/<name>`. */
  readonly name: string;
  readonly description: string;
  /** The JSON document the parameter starts with, already validated. */
  readonly document: unknown;
}

/**
 * A JSON document an operator edits without a deploy, in an SSM String parameter the alerter
 * reads with a short cache (lib/aws/document-parameter.ts). CloudFormation writes the value only
 * when the starting document in the template changes (it compares templates, not the live
 * value), so edits made since survive every deploy that leaves it alone.
 */
export class DocumentParameter extends Construct {
  readonly parameter: ssm.StringParameter;

  constructor(scope: Construct, id: string, props: DocumentParameterProps) {
    super(scope, id);
    this.parameter = new ssm.StringParameter(this, 'Parameter', {
      parameterName: `/${Stack.of(this).stackName}/${props.name}`,
      description: props.description,
      stringValue: JSON.stringify(props.document),
      // Standard (free, 4 KB) while it fits, Advanced (8 KB) beyond.
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
