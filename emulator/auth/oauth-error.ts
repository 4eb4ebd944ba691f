/** An RFC 6749 §5.2 error: the status, the `error` code, and the description. */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    description: string,
    /** Extra response headers, e.g. `Allow` on a 405. */
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

/** A form field the grant requires; missing or empty is `invalid_request`. */
export function required(form: URLSearchParams, name: string): string {
  const value = form.get(name);
  if (value === null || value === '')
    throw new OAuthError(400, 'invalid_request', `${name} is required`);
  return value;
}
