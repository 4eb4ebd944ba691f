import { getSignedUrl } from '@aws-sdk/cloudfront-signer';
import { DAY_MS } from '../validation/day.js';
import { PageLinkError } from './page-link-error.js';

/**
 * The part of the bucket the distribution serves, as its origin path: a page's link is its key
 * without this prefix (`pages/daily/…` → `https://<domain>/daily/…`). infra/constructs/
 * report-site.ts sets the same origin path; test/infra/report-site.test.ts holds them together.
 */
export const PAGES_PREFIX = 'pages/';

export interface PageLinkSigner {
  /** Where the distribution answers, `https://d111111abcdef8.cloudfront.net` or a custom domain. */
  readonly origin: string;
  /** The id of the CloudFront public key the distribution's key group trusts. */
  readonly keyPairId: string;
  /** The matching private key, PEM. A secret: never logged, never in a message. */
  readonly privateKey: string;
  /** Days a link opens its page. */
  readonly days: number;
}

export interface SignedPageLink {
  readonly url: string;
  /** ISO instant from which CloudFront refuses the link. */
  readonly expiresAt: string;
}

/** Signs the link of a page, or answers undefined when it cannot (and says why elsewhere). */
export type PageLinker = (key: string) => Promise<SignedPageLink | undefined>;

/**
 * The unsigned URL of a page: only keys under `pages/`, each path segment percent-encoded
 * (`gsm=…` → `gsm%3D…`) so the URL CloudFront compares with the policy is the one signed.
 *
 * @example
 * pageUrl('https://d1.cloudfront.net', 'pages/daily/gsm=G/latest/report.html');
 * // 'https://d1.cloudfront.net/daily/gsm%3DG/latest/report.html'
 */
export function pageUrl(origin: string, key: string): string {
  const segments = key.startsWith(PAGES_PREFIX) ? key.slice(PAGES_PREFIX.length).split('/') : [];
  if (segments.length === 0 || segments.some((s) => s === '' || s === '.' || s === '..')) {
    throw new PageLinkError('not-a-page', `Not a page key under ${PAGES_PREFIX}: ${key}`);
  }
  return `${origin.replace(/\/+$/, '')}/${segments.map(encodeURIComponent).join('/')}`;
}

/**
 * A CloudFront signed URL with a canned policy: the page's URL and an expiry `days` after
 * `now`, signed RSA-SHA1 with the key pair the distribution's key group trusts. It works
 * without AWS credentials until then, or until the key is rotated.
 *
 * @example
 * const { url } = signPageLink(latestPageKey(gsm), signer);
 */
export function signPageLink(
  key: string,
  signer: PageLinkSigner,
  now: Date = new Date(),
): SignedPageLink {
  if (!Number.isInteger(signer.days) || signer.days < 1) {
    throw new RangeError(
      `a page link lives a whole number of days, 1 or more (got ${signer.days})`,
    );
  }
  // Whole seconds: the policy's AWS:EpochTime is one, and the signer would round otherwise.
  const expires = new Date(Math.floor(now.getTime() / 1000) * 1000 + signer.days * DAY_MS);
  const url = getSignedUrl({
    url: pageUrl(signer.origin, key),
    keyPairId: signer.keyPairId,
    privateKey: signer.privateKey,
    dateLessThan: expires,
  });
  return { url, expiresAt: expires.toISOString() };
}
