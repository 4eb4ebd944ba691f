import { AuthError, HttpError, NetworkError, TimeoutError } from '../../lib/index.js';

/** A failed call as a report detail and what to change, by what went wrong. */
export function explain(
  error: unknown,
  where: 'service' | 'token',
): { detail: string; fix: string } {
  const urlVar = where === 'token' ? 'SKYWATCH_AUTH_URL' : 'SKYWATCH_BASE_URL';
  if (error instanceof NetworkError) {
    return {
      detail: error.message,
      fix: `nothing answers there: check ${urlVar} (scheme, host, port) and the network path to it`,
    };
  }
  if (error instanceof TimeoutError) {
    return { detail: error.message, fix: `no answer in time: check ${urlVar} and any proxy` };
  }
  if (error instanceof AuthError) {
    const ref = error.details.requestId ? ` (requestId ${error.details.requestId})` : '';
    const fixes: Record<string, string> = {
      invalid_client:
        'the service refused the API client: check clientId and clientSecret in the credentials',
      invalid_grant:
        'the service refused the user: check username and password (or the subject token)',
      invalid_scope:
        'the configured scope names a scope the service does not know or grant: check scope',
      insufficient_scope: `the token lacks scope ${error.scope ?? '(not named)'}: grant it to the user`,
      invalid_request: 'the service refused the token request form; report it with the detail',
      unreadable_response: `the token endpoint did not answer as one: check ${urlVar}`,
    };
    return {
      detail: `${error.message}${ref}`,
      fix: fixes[error.code] ?? `the service refused (${error.code}); report it with the detail`,
    };
  }
  if (error instanceof HttpError) {
    const ref = error.requestId ? ` (requestId ${error.requestId})` : '';
    const fix =
      error.status === 404
        ? `no such operation there: check ${urlVar} (the real service's ends in /service)`
        : error.status >= 500
          ? 'the service failed: try again later, quote the requestId to support if it lasts'
          : 'the service refused the request; quote the requestId to support';
    return { detail: `${error.message}${ref}`, fix };
  }
  return {
    detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    fix: 'unexpected failure; run again, then report it with the detail',
  };
}
