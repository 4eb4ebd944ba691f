import { createHmac, timingSafeEqual } from 'node:crypto';

export interface JwtExpectations {
  key: string;
  issuer: string;
  audience: string;
  now: number;
}

/**
 * Verifies an HS256 JWT from the configured identity provider and answers its subject, or
 * throws with the reason. Only what the token-exchange grant needs; not a general JWT library.
 */
export function verifyJwt(token: string, expected: JwtExpectations): string {
  const parts = token.split('.');
  if (parts.length !== 3) throw new Error('the subject token is not a JWT');
  const [header64 = '', payload64 = '', signature64 = ''] = parts;
  let header: { alg?: unknown };
  let claims: { iss?: unknown; aud?: unknown; exp?: unknown; nbf?: unknown; sub?: unknown };
  try {
    header = JSON.parse(Buffer.from(header64, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(payload64, 'base64url').toString('utf8'));
  } catch {
    throw new Error('the subject token is not a JWT');
  }
  if (header.alg !== 'HS256') throw new Error('the subject token must be signed with HS256');
  const signature = createHmac('sha256', expected.key).update(`${header64}.${payload64}`).digest();
  const given = Buffer.from(signature64, 'base64url');
  if (given.length !== signature.length || !timingSafeEqual(given, signature)) {
    throw new Error('the subject token signature is invalid');
  }
  const nowSeconds = expected.now / 1000;
  if (claims.iss !== expected.issuer) throw new Error('the subject token issuer is not trusted');
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(expected.audience))
    throw new Error('the subject token audience is wrong');
  if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds)
    throw new Error('the subject token has expired');
  if (typeof claims.nbf === 'number' && claims.nbf > nowSeconds)
    throw new Error('the subject token is not yet valid');
  if (typeof claims.sub !== 'string') throw new Error('the subject token has no subject');
  return claims.sub;
}
