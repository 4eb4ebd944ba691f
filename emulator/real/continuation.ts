import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * Continuation tokens as the real service writes them: long, opaque, URL-safe, looking like
 * base64 of gzip (`H4sIAAAA…`). The real profile wraps the contract profile's signed token
 * that way and unwraps what comes back, so paging itself is unchanged.
 */
const GZIP_BASE64 = 'H4sI';

/** The contract token wrapped as the real service's. */
export function wrapToken(token: string): string {
  return gzipSync(Buffer.from(token, 'utf8')).toString('base64url');
}

/** The contract token inside a real-looking one; text that is not one is answered as is. */
export function unwrapToken(token: string): string {
  if (!token.startsWith(GZIP_BASE64)) return token;
  try {
    return gunzipSync(Buffer.from(token, 'base64url')).toString('utf8');
  } catch {
    return token; // not ours: the paging code refuses it as forged
  }
}

/**
 * A page's `ContinuationToken` and `ContinuationURI` (absolute, as the service gives it) with
 * the token wrapped; null stays null.
 */
export function wrapPaging(page: Record<string, unknown>): void {
  const token = page.ContinuationToken;
  if (typeof token !== 'string') return;
  const wrapped = wrapToken(token);
  page.ContinuationToken = wrapped;
  if (typeof page.ContinuationURI === 'string') {
    const uri = new URL(page.ContinuationURI);
    uri.searchParams.set('continuation', wrapped);
    page.ContinuationURI = uri.toString();
  }
}
