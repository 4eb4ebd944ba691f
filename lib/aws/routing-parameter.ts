import type { SSMClient } from '@aws-sdk/client-ssm';
import {
  type AlertRouter,
  DEFAULT_ROUTING,
  parseRoutingText,
  type RoutedAlert,
  type Routing,
  type RoutingDocument,
  routeAlert,
} from '../alerts/index.js';
import { DocumentParameter, type DocumentParameterOptions } from './document-parameter.js';

/** Unreadable or invalid, alerts go to the default destinations (the four legacy names). */
export type RoutingParameterOptions = DocumentParameterOptions;

/**
 * The routing document in its SSM parameter (docs/operations.md, "Routing"), as a router: an
 * operator edits it with `aws ssm put-parameter`, and the alerter follows within `maxAge`. A
 * bad document never loses an alert: every alert goes to the default destinations meanwhile
 * (lib/aws/document-parameter.ts).
 *
 * @example
 * const router = new RoutingParameter(ssmClient(), env.ALERT_ROUTING_PARAMETER, { onFallback });
 */
export class RoutingParameter extends DocumentParameter<RoutingDocument> implements AlertRouter {
  constructor(ssm: SSMClient, name: string, options: RoutingParameterOptions = {}) {
    super(ssm, name, { parse: parseRoutingText, fallback: DEFAULT_ROUTING }, options);
  }

  async route(alert: RoutedAlert): Promise<Routing> {
    return routeAlert(await this.document(), alert);
  }
}
