import { SkywatchError } from '../errors/index.js';

/** Why a page link was not made, or is not honoured. */
export type PageLinkProblem = 'not-a-page' | 'malformed' | 'bad-signature' | 'expired';

/**
 * A page link cannot be made for a key outside `pages/`, or a link does not open its page:
 * malformed, signed by another key, or past its expiry (CloudFront answers 403 for each).
 */
export class PageLinkError extends SkywatchError {
  constructor(
    readonly problem: PageLinkProblem,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PageLinkError';
  }
}
