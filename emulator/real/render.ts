import { hash } from '../data/random.js';

/**
 * How the real service writes what the contract profile writes one way
 * (/work/shared/spec/real-service.md, docs/emulator.md "Profiles"): the same data, rendered
 * the way the service's own output, documentation and public clients show it. Every choice is
 * a pure function of the seed and the entry, so two runs answer byte for byte the same.
 */
export interface RealRendering {
  seed: number;
  /** Share of entries (0..1) that carry a null and a blank in fields typed as plain values. */
  surpriseShare: number;
}

/** Instants as the contract profile writes them: whole seconds, UTC, `Z`. */
const CONTRACT_INSTANT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})Z$/;

/**
 * The renderings of one instant seen from the real service: no zone and no fraction (LastSeen
 * in real output), seven digits with Z (documentation samples), three digits with Z (request
 * samples), as the contract writes it, and an explicit zero offset.
 */
const INSTANT_RENDERINGS: ((seconds: string) => string)[] = [
  (s) => s,
  (s) => `${s}.0000000Z`,
  (s) => `${s}.000Z`,
  (s) => `${s}Z`,
  (s) => `${s}+00:00`,
];

/** Arrays whose elements are entries: each element may carry surprises of its own. */
const ENTRY_ARRAYS = new Set(['QueryResults', 'Sites']);

/**
 * Fields of an entry the real service has been seen to leave null or blank, and that no
 * function needs to identify the entry (docs/service-choices.md "Nulls and blanks"). Only
 * those present in an entry are candidates; nested ones are written `Group.Field`.
 */
const SOFT_FIELDS = [
  'LastSeen',
  'ClientVersion',
  'OSAndVersions.PrimaryBrowser',
  'BasicInfo.DeviceType',
  'ExtendedInfo.Language',
  'TimesAndStats.LastScan',
  'LastSeenDate',
  'AgentVersion',
  'SiteStateChangedDate',
  'LicenseType',
];

/** A field the documentation never names, present in every entry the real profile writes. */
const UNDOCUMENTED = { name: 'PolicyName', value: 'Recommended Defaults' };

function textHash(seed: number, text: string, salt: number): number {
  let h = hash(seed, salt);
  for (let i = 0; i < text.length; i++) h = hash(h, text.charCodeAt(i));
  return h;
}

function renderInstants(value: unknown, seed: number, salt: number, path: string): unknown {
  if (typeof value === 'string') {
    const m = CONTRACT_INSTANT.exec(value);
    if (!m) return value;
    const pick = textHash(seed, path, salt) % INSTANT_RENDERINGS.length;
    return (INSTANT_RENDERINGS[pick] as (s: string) => string)(m[1] as string);
  }
  if (Array.isArray(value)) return value.map((v, i) => renderInstants(v, seed, salt + i, path));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      out[k] = renderInstants(v, seed, salt, `${path}.${k}`);
    return out;
  }
  return value;
}

/** The object holding `Group.Field` (or `Field`) of an entry and the key, when it is there. */
function slot(entry: Record<string, unknown>, field: string) {
  const [head = '', leaf] = field.split('.');
  const holder = leaf === undefined ? entry : entry[head];
  const key = leaf ?? head;
  if (!holder || typeof holder !== 'object' || !(key in holder)) return undefined;
  return { holder: holder as Record<string, unknown>, key };
}

function identity(entry: Record<string, unknown>, index: number): string {
  const id = entry.MachineID ?? entry.SiteKey ?? entry.SiteId;
  return typeof id === 'string' ? id : `#${index}`;
}

/** One entry as the real service writes it: its renderings, its surprises, its extra field. */
function renderEntry(raw: unknown, index: number, r: RealRendering): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const id = identity(raw as Record<string, unknown>, index);
  const entry = renderInstants(raw, r.seed, textHash(r.seed, id, 1), '') as Record<string, unknown>;
  const h = textHash(r.seed, id, 2);
  if ((h % 10_000) / 10_000 < r.surpriseShare) {
    const present = SOFT_FIELDS.flatMap((f) => slot(entry, f) ?? []);
    const n = h % Math.max(1, present.length);
    const b = (n + 1 + ((h >>> 8) % Math.max(1, present.length - 1))) % Math.max(1, present.length);
    const nulled = present[n];
    const blanked = present[b];
    if (nulled) nulled.holder[nulled.key] = null;
    if (blanked && b !== n) blanked.holder[blanked.key] = '';
  }
  entry[UNDOCUMENTED.name] = UNDOCUMENTED.value;
  return entry;
}

/**
 * A JSON answer of the contract profile as the real service would write it: entries (of
 * `QueryResults` and `Sites`) with mixed renderings of their instants even within one record,
 * a seeded share of them with a null and a blank, and an undocumented field; instants outside
 * entries in mixed renderings too.
 *
 * @example
 * const body = renderReal(JSON.parse(contractBody), { seed: 1, surpriseShare: 0.1 });
 */
export function renderReal(value: unknown, r: RealRendering): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (ENTRY_ARRAYS.has(k) && Array.isArray(v)) out[k] = v.map((e, i) => renderEntry(e, i, r));
    else out[k] = renderInstants(v, r.seed, textHash(r.seed, k, 3), k);
  }
  return out;
}
