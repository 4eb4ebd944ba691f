/**
 * Redaction of secrets. Errors and events pass every string they show through `redact`, so a
 * token, password or client secret can never reach a log line, a message or `util.inspect`.
 */

const REDACTED = '[REDACTED]';
// Shortest value registered. A one- to three-character value is no credential, and removing it
// everywhere it stands alone would eat words such as "a", "to" or "ID" from every message.
const MIN_SECRET_LENGTH = 4;
// Below this a secret is removed only where it stands alone (not inside a longer run of letters
// and digits), so a password "word" is redacted but "password" and "words" are left whole.
const WHOLE_WORD_BELOW = 6;
// Bounded so a long-running process that rotates tokens for weeks cannot grow it without limit.
const MAX_SECRETS = 500;
/**
 * Each registered secret with its URL-encoded form and, for a short one, the patterns matching
 * each where it stands alone: worked out once, when registered, not at every text redacted (the
 * client redacts every request's URL).
 */
interface Registered {
  alone: RegExp | undefined;
  encoded: string;
  encodedAlone: RegExp | undefined;
}
const secrets = new Map<string, Registered>();

function standalone(text: string): RegExp {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![A-Za-z0-9])${escaped}(?![A-Za-z0-9])`, 'g');
}

/** Query parameters whose values are secrets wherever they appear in a URL. */
const SECRET_PARAMS = new Set([
  'access_token',
  'refresh_token',
  'token',
  'id_token',
  'subject_token',
  'password',
  'client_secret',
  'code',
  'api_key',
  'apikey',
  'key',
  'secret',
  'signature',
  'sig',
]);

/** Object keys whose values are secrets (`code` and `key` are not: errors carry such fields). */
const SECRET_KEYS =
  /^(access_token|refresh_token|id_token|subject_token|token|password|client_secret|secret|api_?key|authorization|cookie|set-cookie)$/i;

const PATTERNS: RegExp[] = [
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi,
  /\b(access_token|refresh_token|subject_token|client_secret|password|authorization)(["']?\s*[:=]\s*["']?)(?!Bearer\b|Basic\b|\[REDACTED\])[^\s"'&,}]+/gi,
];

/**
 * Remembers a secret value so that `redact` removes it from any text later. Values of 4 or 5
 * characters are removed only where they stand alone; shorter ones are not registered.
 *
 * @example
 * registerSecret(tokens.accessToken);
 */
export function registerSecret(value: string | undefined | null): void {
  if (!value || value.length < MIN_SECRET_LENGTH || secrets.has(value)) return;
  if (secrets.size >= MAX_SECRETS) {
    const oldest = secrets.keys().next().value;
    if (oldest !== undefined) secrets.delete(oldest);
  }
  const encoded = encodeURIComponent(value);
  const short = value.length < WHOLE_WORD_BELOW;
  secrets.set(value, {
    alone: short ? standalone(value) : undefined,
    encoded,
    encodedAlone: short && encoded !== value ? standalone(encoded) : undefined,
  });
}

/**
 * Removes registered secrets and credential-looking fragments from a text.
 *
 * @example
 * redact('Authorization: Bearer abc.def'); // 'Authorization: Bearer [REDACTED]'
 */
export function redact(text: string): string {
  let out = text;
  for (const [secret, { alone, encoded, encodedAlone }] of secrets) {
    if (alone) {
      if (out.includes(secret)) out = out.replace(alone, REDACTED);
      if (encodedAlone && out.includes(encoded)) out = out.replace(encodedAlone, REDACTED);
      continue;
    }
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    if (encoded !== secret && out.includes(encoded)) out = out.split(encoded).join(REDACTED);
  }
  out = out.replace(PATTERNS[0] as RegExp, (_m, scheme: string) => `${scheme} ${REDACTED}`);
  out = out.replace(
    PATTERNS[1] as RegExp,
    (_m, name: string, sep: string) => `${name}${sep}${REDACTED}`,
  );
  return out;
}

/**
 * Returns the URL with the values of secret-bearing query parameters replaced.
 *
 * @example
 * redactUrl('https://x/a?access_token=abc&b=1'); // 'https://x/a?access_token=[REDACTED]&b=1'
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redact(url);
  }
  if (parsed.username || parsed.password) {
    parsed.username = '';
    parsed.password = '';
  }
  for (const name of [...parsed.searchParams.keys()]) {
    if (SECRET_PARAMS.has(name.toLowerCase())) parsed.searchParams.set(name, REDACTED);
  }
  return redact(parsed.toString().replaceAll('%5BREDACTED%5D', REDACTED));
}

/**
 * Deep-copies a JSON-like value with every string redacted and secret-named keys blanked.
 *
 * @example
 * redactValue({ authorization: 'Bearer x' }); // { authorization: '[REDACTED]' }
 */
export function redactValue(value: unknown, depth = 0): unknown {
  if (depth > 8) return '[…]';
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SECRET_KEYS.test(k) ? REDACTED : redactValue(v, depth + 1);
    }
    return out;
  }
  return value;
}
