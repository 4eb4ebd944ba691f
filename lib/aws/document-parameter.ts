import { SSMProvider } from '@aws-lambda-powertools/parameters/ssm';
import type { SSMClient } from '@aws-sdk/client-ssm';

export interface DocumentParameterOptions {
  /** How long a document read is used before SSM is asked again. @default 60 */
  maxAgeSeconds?: number;
  /**
   * The document could not be read or is invalid: the fallback is used until the next read.
   * Called once per failed read (at most once per `maxAgeSeconds`), for a log line and a
   * metric; the documents kept this way hold no secret.
   */
  onFallback?: (error: unknown) => void;
  now?: () => number;
}

/** How a document's text becomes its value, and what stands in when it cannot. */
export interface DocumentReading<T> {
  /** Throws when the text is not a valid document. */
  parse(text: string): T;
  fallback: T;
}

/**
 * An operator's JSON document in an SSM String parameter (the routing document, the maintenance
 * windows: docs/operations.md), edited without a deploy and followed within `maxAge`. Read with
 * Powertools' SSMProvider, whose cache keeps a read for `maxAge`; the text is parsed once per
 * change.
 *
 * It never throws: unreadable (SSM down, access denied, no such parameter) or invalid, the
 * reading's `fallback` is in force and `onFallback` says why. Powertools caches values, not
 * failures, so a failure is remembered here for `maxAge`: a run that asks often during an SSM
 * outage asks SSM once, not once (with the SDK's retries) per question.
 *
 * @example
 * const mutes = new DocumentParameter(ssm, name, { parse: parseMutesText, fallback: NO_MUTES });
 * const doc = await mutes.document();
 */
export class DocumentParameter<T> {
  private readonly provider: SSMProvider;
  private readonly maxAgeSeconds: number;
  private readonly now: () => number;
  private parsed: { text: string; document: T } | undefined;
  private failedUntil = Number.NEGATIVE_INFINITY;

  constructor(
    ssm: SSMClient,
    readonly name: string,
    private readonly reading: DocumentReading<T>,
    private readonly options: DocumentParameterOptions = {},
  ) {
    this.provider = new SSMProvider({ awsSdkV3Client: ssm });
    this.maxAgeSeconds = options.maxAgeSeconds ?? 60;
    this.now = options.now ?? Date.now;
  }

  /** The document in force: the parameter's, or the fallback when it cannot be used. */
  async document(): Promise<T> {
    if (this.now() < this.failedUntil) return this.reading.fallback;
    try {
      const text = (await this.provider.get(this.name, { maxAge: this.maxAgeSeconds })) ?? '';
      if (this.parsed?.text !== text) this.parsed = { text, document: this.reading.parse(text) };
      return this.parsed.document;
    } catch (error) {
      this.failedUntil = this.now() + this.maxAgeSeconds * 1000;
      this.options.onFallback?.(error);
      return this.reading.fallback;
    }
  }
}
