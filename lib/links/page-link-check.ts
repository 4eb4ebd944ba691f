import { createVerify } from 'node:crypto';
import { PageLinkError } from './page-link-error.js';
import { PAGES_PREFIX } from './page-links.js';

export interface CheckedPageLink {
  /** The S3 key of the page the link opens. */
  readonly key: string;
  readonly expiresAt: string;
}

/** CloudFront's URL-safe base64: `+` → `-`, `=` → `_`, `/` → `~`; undone here. */
const fromCloudFrontBase64 = (text: string) =>
  text.replace(/-/g, '+').replace(/_/g, '=').replace(/~/g, '/');

/**
 * Checks a page link as CloudFront does for a canned policy: the key pair id, the RSA-SHA1
 * signature of `{"Statement":[{"Resource":<url>,"Condition":{"DateLessThan":{"AWS:EpochTime":
 * <Expires>}}}]}` against the public key, then the expiry. Throws {@link PageLinkError} saying
 * which failed; answers the page's key. For tests and the local run, where no CloudFront is.
 *
 * @example
 * verifyPageLink(link.url, { keyPairId, publicKey }); // { key: 'pages/daily/…', expiresAt }
 */
export function verifyPageLink(
  url: string,
  trusted: { keyPairId: string; publicKey: string },
  now: Date = new Date(),
): CheckedPageLink {
  const query = url.indexOf('?');
  const params = new URLSearchParams(query < 0 ? '' : url.slice(query + 1));
  const expires = params.get('Expires');
  const signature = params.get('Signature');
  const keyPairId = params.get('Key-Pair-Id');
  if (query < 0 || !expires || !/^\d+$/.test(expires) || !signature || !keyPairId) {
    throw new PageLinkError(
      'malformed',
      'Not a signed page link: Expires, Signature or Key-Pair-Id is missing',
    );
  }
  if (keyPairId !== trusted.keyPairId) {
    throw new PageLinkError(
      'bad-signature',
      `Signed by key pair ${keyPairId}, not the trusted ${trusted.keyPairId}`,
    );
  }
  const resource = url.slice(0, query);
  const policy = `{"Statement":[{"Resource":${JSON.stringify(resource)},"Condition":{"DateLessThan":{"AWS:EpochTime":${expires}}}}]}`;
  const verifier = createVerify('RSA-SHA1');
  verifier.update(policy);
  if (!verifier.verify(trusted.publicKey, fromCloudFrontBase64(signature), 'base64')) {
    throw new PageLinkError(
      'bad-signature',
      'The signature does not match the link and its expiry',
    );
  }
  const expiresAt = new Date(Number(expires) * 1000);
  if (now.getTime() >= expiresAt.getTime()) {
    throw new PageLinkError('expired', `The link expired at ${expiresAt.toISOString()}`);
  }
  const path = new URL(resource).pathname.split('/').slice(1).map(decodeURIComponent);
  return { key: `${PAGES_PREFIX}${path.join('/')}`, expiresAt: expiresAt.toISOString() };
}
