import { invalidParameter } from './problem.js';

/**
 * Query and path parameter rules shared by the routes. Values are checked strictly. Names are
 * matched case-insensitively, as the ASP.NET-style service does; a name the operation does not
 * take, or a name given twice (in any letter case), is a 400 naming it: a misspelt
 * `modifedSince` silently ignored would answer every endpoint instead of the changed ones.
 */

export const KEYCODE = /^[A-Z0-9]{4}(-[A-Z0-9]{4}){4}$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,7})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export class Query {
  private readonly values = new Map<string, string>();

  /** `accepted`: the parameter names of the operation, in their documented spelling. */
  constructor(params: URLSearchParams, accepted: readonly string[]) {
    const known = new Set(accepted.map((name) => name.toLowerCase()));
    for (const [name, value] of params) {
      const key = name.toLowerCase();
      if (!known.has(key)) {
        throw invalidParameter(
          name,
          accepted.length === 0
            ? 'is not a parameter of this operation, which takes none'
            : `is not a parameter of this operation; it takes ${accepted.join(', ')}`,
        );
      }
      if (this.values.has(key)) throw invalidParameter(name, 'is given more than once');
      this.values.set(key, value);
    }
  }

  get(name: string): string | undefined {
    return this.values.get(name.toLowerCase());
  }
}

export function keycodeParam(name: string, value: string): string {
  if (!KEYCODE.test(value)) {
    throw invalidParameter(
      name,
      'must be a keycode of five groups of four letters or digits joined by "-"',
    );
  }
  return value.toUpperCase();
}

export function uuidParam(name: string, value: string): string {
  if (!UUID.test(value)) throw invalidParameter(name, 'must be a UUID');
  return value.toLowerCase();
}

/** A MachineID is three non-empty segments joined by ":::" with no ":" inside a segment. */
export function isMachineId(value: string): boolean {
  const parts = value.split(':::');
  return parts.length === 3 && parts.every((p) => p.length > 0 && !p.includes(':'));
}

export function batchSizeParam(query: Query): number {
  const raw = query.get('batchSize');
  if (raw === undefined) return 50;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < 1 || value > 1000) {
    throw invalidParameter(
      'batchSize',
      `must be an integer from 1 to 1000 (got ${JSON.stringify(raw)})`,
    );
  }
  return value;
}

export function booleanParam(query: Query, name: string): boolean {
  const raw = query.get(name);
  if (raw === undefined) return false;
  const lower = raw.toLowerCase();
  if (lower !== 'true' && lower !== 'false') {
    throw invalidParameter(name, `must be true or false (got ${JSON.stringify(raw)})`);
  }
  return lower === 'true';
}

/**
 * An ISO 8601 date or datetime as epoch ms. A datetime without an offset is UTC. Impossible
 * calendar dates (2026-02-30) are refused rather than rolled over as Date.parse would.
 */
export function parseInstant(name: string, raw: string): number {
  const m = INSTANT.exec(raw);
  const fail = () =>
    invalidParameter(name, `must be an ISO 8601 date or date-time (got ${JSON.stringify(raw)})`);
  if (!m) throw fail();
  const [, y, mo, d, h, mi, s, zone] = m;
  let text = `${y}-${mo}-${d}T00:00:00Z`;
  if (h !== undefined) {
    const withoutZone = raw.slice(0, raw.length - (zone?.length ?? 0));
    const offset = zone === undefined ? 'Z' : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
    text = `${withoutZone}${offset}`;
  }
  const ms = Date.parse(text);
  const calendar = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (
    Number.isNaN(ms) ||
    calendar.getUTCDate() !== Number(d) ||
    calendar.getUTCMonth() !== Number(mo) - 1 ||
    Number(h ?? 0) > 23 ||
    Number(mi ?? 0) > 59 ||
    Number(s ?? 0) > 59
  ) {
    throw fail();
  }
  return ms;
}
