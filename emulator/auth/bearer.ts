import type { IncomingHttpHeaders } from 'node:http';
import { Problem } from '../http/problem.js';
import type { EmulatorState } from '../state.js';

const REALM = 'Bearer realm="skywatch"';

/** Checks `Authorization: Bearer` (RFC 6750) and the operation's scope; throws 401/403. */
export function requireScope(
  state: EmulatorState,
  headers: IncomingHttpHeaders,
  scope: string,
): void {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  if (!match) {
    throw new Problem(
      401,
      'invalid_token',
      'an access token is required: send Authorization: Bearer <token>',
      undefined,
      {
        'www-authenticate': REALM,
      },
    );
  }
  const grant = state.tokens.verify(match[1] ?? '', state.clock.now());
  if (!grant) {
    throw new Problem(
      401,
      'invalid_token',
      'the access token is invalid, expired or revoked',
      undefined,
      {
        'www-authenticate': `${REALM}, error="invalid_token", error_description="The access token is invalid, expired or revoked"`,
      },
    );
  }
  if (!grant.scopes.includes(scope)) {
    throw new Problem(
      403,
      'insufficient_scope',
      `this operation requires the scope ${scope}`,
      undefined,
      {
        'www-authenticate': `${REALM}, error="insufficient_scope", scope="${scope}"`,
      },
    );
  }
}
