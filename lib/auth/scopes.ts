/** Scope names of docs/service-choices.md. 4.1/4.2 use the base URL itself: see `baseUrlScope`. */
export const SCOPES = {
  gsm: 'SkyStatus.GSM',
  reporting: 'SkyStatus.Reporting',
  console: 'Console.GSM',
  shop: 'ECom.Shop',
} as const;

/**
 * The scope of 4.1/4.2: the base URL string without a trailing slash.
 *
 * @example
 * baseUrlScope('https://api.example.com/service/'); // 'https://api.example.com/service'
 */
export function baseUrlScope(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

/** Every scope the client's operations need, for a token that serves them all. */
export function allOperationScopes(baseUrl: string): string[] {
  return [baseUrlScope(baseUrl), SCOPES.gsm, SCOPES.reporting, SCOPES.console, SCOPES.shop];
}

/**
 * Parses a granted `scope` in any of its renderings: `["A","B"]`, `[A, B]`, `A B`, or an array.
 *
 * @example
 * parseScope('[SkyStatus.GSM, SkyStatus.Reporting]'); // ['SkyStatus.GSM', 'SkyStatus.Reporting']
 */
export function parseScope(raw: string | readonly string[] | undefined | null): string[] {
  if (raw === undefined || raw === null) return [];
  if (Array.isArray(raw)) return raw.map((s) => String(s).trim()).filter(Boolean);
  const text = String(raw).trim();
  if (text.startsWith('[') && text.endsWith(']')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) return parsed.map((s) => String(s).trim()).filter(Boolean);
    } catch {
      // Not JSON: the bare form `[A, B]`.
    }
    return text
      .slice(1, -1)
      .split(',')
      .map((s) => s.trim().replace(/^["']|["']$/g, ''))
      .filter(Boolean);
  }
  return text.split(/\s+/).filter(Boolean);
}

function norm(scope: string): string {
  // Known names are granted in canonical case; URL scopes compare without a trailing slash.
  return scope.replace(/\/+$/, '').toLowerCase();
}

/**
 * True when `granted` includes `needed` (case-insensitively, as the service matches).
 *
 * @example
 * hasScope(['skystatus.gsm'], 'SkyStatus.GSM'); // true
 */
export function hasScope(granted: readonly string[], needed: string): boolean {
  const n = norm(needed);
  return granted.some((g) => norm(g) === n);
}

/** The requested scopes missing from the granted ones. */
export function missingScopes(requested: readonly string[], granted: readonly string[]): string[] {
  return requested.filter((r) => r !== '*' && !hasScope(granted, r));
}
