import { BASE_URL_SCOPE } from '../options.js';

/** Every scope the service knows (spec 5.3 plus our choices for 4.9 and 4.10). */
const CATALOGUE = [
  'SkyStatus.GSM',
  'SkyStatus.Reporting',
  'Console.GSM',
  'ECom.Shop',
  'ECom.Orders',
  'ECom.Licenses',
  'SecureCloud.Usage',
];

export class ScopeError extends Error {}

/** Canonical name of a scope (case-insensitive match), or undefined when unknown. */
export function canonicalScope(name: string, baseUrl: string): string | undefined {
  if (name.replace(/\/+$/, '').toLowerCase() === baseUrl.toLowerCase()) return baseUrl;
  return CATALOGUE.find((s) => s.toLowerCase() === name.toLowerCase());
}

/** A user's allowed scopes with the `{base_url}` placeholder made concrete. */
export function allowedScopes(userScopes: string[], baseUrl: string): string[] {
  return userScopes.map((s) => (s === BASE_URL_SCOPE ? baseUrl : s));
}

/**
 * Scopes to grant for a space-delimited request: unknown names fail, names the user may not
 * have are dropped (RFC 6749 §3.3), and nothing grantable fails.
 */
export function grantScopes(
  requested: string,
  allowed: string[],
  baseUrl: string,
  wildcardAllowed: boolean,
): string[] {
  const names = requested.split(' ').filter((s) => s.length > 0);
  if (names.length === 0) throw new ScopeError('scope must name at least one scope');
  const granted = new Set<string>();
  for (const name of names) {
    if (name.includes('*')) {
      if (!wildcardAllowed)
        throw new ScopeError('wildcard scopes are not available for identity providers');
      for (const s of allowed) granted.add(s);
      continue;
    }
    const canonical = canonicalScope(name, baseUrl);
    if (canonical === undefined) throw new ScopeError(`unknown scope ${name}`);
    if (allowed.includes(canonical)) granted.add(canonical);
  }
  if (granted.size === 0)
    throw new ScopeError('none of the requested scopes can be granted to this user');
  return [...granted];
}

/** The token response's JSON-array-like rendering of granted scopes (spec 5.2). */
export function renderScopes(scopes: string[], style: 'json' | 'bare'): string {
  return style === 'json' ? JSON.stringify(scopes) : `[${scopes.join(', ')}]`;
}
