/**
 * Problem details (RFC 9457) for every non-token error, shaped like ASP.NET's: `errors` maps
 * each parameter at fault to its messages. See docs/service-choices.md.
 */

const TITLES: Record<string, string> = {
  invalid_parameter: 'One or more request parameters are invalid.',
  user_agent_required: 'A User-Agent header is required.',
  invalid_token: 'The access token is missing, invalid or expired.',
  insufficient_scope: 'The access token lacks the scope this operation requires.',
  not_found: 'The resource was not found.',
  method_not_allowed: 'The method is not allowed on this resource.',
  not_acceptable: 'None of the accepted media types can be produced.',
  unsupported_media_type: 'The request body media type is not supported.',
  payload_too_large: 'The request body is too large.',
  rate_limited: 'Too many requests.',
  internal_error: 'An unexpected error occurred.',
  bad_gateway: 'Bad gateway.',
  service_unavailable: 'The service is temporarily unavailable.',
  gateway_timeout: 'Gateway timeout.',
};

export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors?: Record<string, string[]>,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'Problem';
  }

  body(traceId: string): string {
    return JSON.stringify({
      type: `https://skywatch.dev/problems/${this.code.replaceAll('_', '-')}`,
      title: TITLES[this.code] ?? 'Error',
      status: this.status,
      code: this.code,
      detail: this.detail,
      ...(this.errors ? { errors: this.errors } : {}),
      traceId,
    });
  }

  /**
   * The real service's error envelope (real-service.md "Errors on resources"): `error` is the
   * RFC 6750 code on 401/403 and null otherwise, the message is `error_description`, and the
   * casing is mixed as the service's own.
   */
  envelope(requestId: string): string {
    const oauth = this.status === 401 || this.status === 403;
    return JSON.stringify({
      statusCode: this.status,
      requestId,
      error: oauth ? this.code : null,
      error_description: this.detail,
      AdditionalInformation: {},
    });
  }
}

/** A 400 naming the parameter at fault: "batchSize must be an integer from 1 to 1000 (got 0)". */
export function invalidParameter(parameter: string, rule: string): Problem {
  return new Problem(400, 'invalid_parameter', `${parameter} ${rule}.`, { [parameter]: [rule] });
}

/** A 400 listing several fields at fault at once (request bodies). */
export function invalidFields(errors: Record<string, string[]>): Problem {
  const first = Object.entries(errors)
    .map(([field, rules]) => `${field} ${rules.join('; ')}`)
    .join('; ');
  return new Problem(400, 'invalid_parameter', `${first}.`, errors);
}

export function notFound(what: string): Problem {
  return new Problem(404, 'not_found', what);
}
