import type { Construct } from 'constructs';
import { parseRouting, type RoutingDocument } from '../../lib/alerts/routing.js';
import { DocumentParameter } from './document-parameter.js';

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
 */
export class AlertRouting extends DocumentParameter {
  constructor(scope: Construct, id: string, props: AlertRoutingProps) {
    super(scope, id, {
      name: 'alert-routing',
      description:
        'Skywatch alert routing document (docs/operations.md, "Routing"); edit with aws ssm put-parameter',
      document: parseRouting(props.document),
    });
  }
}
