import { SSMProvider } from '@aws-lambda-powertools/parameters/ssm';
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

export interface RoutingParameterOptions {
  /** How long a document read is used before SSM is asked again. @default 60 */
  maxAgeSeconds?: number;
  /**
   * The document could not be read or is invalid: alerts go to the default destinations
   * until the next read. Called once per failed read (at most once per `maxAgeSeconds`), for a
   * log line and a metric; the error holds no secret (the document holds names only).
   */
  onFallback?: (error: unknown) => void;
  now?: () => number;
}

/**
 * The routing document in its SSM parameter (docs/operations.md, "Routing"), as a router: an
 * operator edits it with `aws ssm put-parameter`, and the alerter follows within `maxAge`.
 * Read with Powertools' SSMProvider, whose cache keeps a read for `maxAge`; the text is parsed
 * once per change.
 *
 * It never throws, so a bad document never loses an alert: unreadable (SSM down, access
 * denied, no such parameter) or invalid, every alert goes to the default destinations (the
 * four legacy names) and `onFallback` says why. Powertools caches values, not failures, so a
 * failure is remembered here for `maxAge`: a run with many alerts during an SSM outage asks
 * SSM once, not once (with the SDK's retries) per alert.
 *
 * @example
 * const router = new RoutingParameter(ssmClient(), env.ALERT_ROUTING_PARAMETER, { onFallback });
 */
export class RoutingParameter implements AlertRouter {
  private readonly provider: SSMProvider;
  private readonly maxAgeSeconds: number;
  private readonly now: () => number;
  private parsed: { text: string; document: RoutingDocument } | undefined;
  private failedUntil = Number.NEGATIVE_INFINITY;

  constructor(
    ssm: SSMClient,
    readonly name: string,
    private readonly options: RoutingParameterOptions = {},
  ) {
    this.provider = new SSMProvider({ awsSdkV3Client: ssm });
    this.maxAgeSeconds = options.maxAgeSeconds ?? 60;
    this.now = options.now ?? Date.now;
  }

  /** The document in force: the parameter's, or the default when it cannot be used. */
  async document(): Promise<RoutingDocument> {
    if (this.now() < this.failedUntil) return DEFAULT_ROUTING;
    try {
      const text = (await this.provider.get(this.name, { maxAge: this.maxAgeSeconds })) ?? '';
      if (this.parsed?.text !== text) this.parsed = { text, document: parseRoutingText(text) };
      return this.parsed.document;
    } catch (error) {
      this.failedUntil = this.now() + this.maxAgeSeconds * 1000;
      this.options.onFallback?.(error);
      return DEFAULT_ROUTING;
    }
  }

  async route(alert: RoutedAlert): Promise<Routing> {
    return routeAlert(await this.document(), alert);
  }
}
