import type { Gsm, Site } from './dataset.js';
import type { EndpointChange, EndpointChanges } from './endpoint-state.js';
import { machineId } from './ids.js';
import { between, hash2, hash4, pick } from './random.js';
import { DAY_MS } from './time-format.js';

const HOUR_MS = 3_600_000;
const HOST_PREFIXES = ['DESKTOP', 'LAPTOP', 'WS', 'SRV', 'POS', 'KIOSK'];
const OSES = [
  'Windows 11 Pro',
  'Windows 10 Enterprise',
  'Windows Server 2022',
  'Windows Server 2019',
  'macOS 15 Sequoia',
];

/** The facts of one endpoint that several representations share. */
export interface EndpointFacts {
  gsm: Gsm;
  site: Site;
  index: number;
  /** Per-endpoint hash from which every other derived value is drawn. */
  h: number;
  machineId: string;
  hostName: string;
  os: string;
  isServer: boolean;
  clientVersion: string;
  firstSeen: number;
  lastSeen: number;
  lastChanged: number;
  hidden: boolean;
  deactivatedSince: number | null;
  infected: { threat: string; since: number } | undefined;
  hasBeenInfected: boolean;
  hasDnsp: boolean;
  change: EndpointChange | undefined;
  protectionOff: boolean;
  uninstalled: boolean;
  /** Another antivirus product active on the endpoint, if any. */
  otherAv: string | undefined;
}

/** Latest generated LastChanged/LastSeen: a modifiedSince after it needs only stored changes. */
export function latestBaseInstant(anchor: number): number {
  return anchor - HOUR_MS;
}

/** Whether an endpoint is hidden and since when it is deactivated, now (changes win). */
export function endpointFlags(
  h: number,
  anchor: number,
  enrolled: boolean,
  change: EndpointChange | undefined,
): { hidden: boolean; deactivatedSince: number | null } {
  const baseDeactivated = !enrolled && h % 89 === 7;
  // `null` in a change means "reactivated"; undefined means "as generated".
  const deactivatedSince =
    change?.deactivated === null
      ? null
      : change?.deactivated
        ? change.deactivated.since
        : baseDeactivated
          ? anchor - between(hash2(h, 3), 2, 60) * DAY_MS
          : null;
  return { hidden: change?.hidden ?? (!enrolled && h % 97 === 5), deactivatedSince };
}

/** The per-endpoint hash every derived value of the endpoint is drawn from. */
export function endpointHash(seed: number, gsmIndex: number, index: number): number {
  return hash4(seed, 0xe9d, gsmIndex, index);
}

export function endpointFacts(
  seed: number,
  anchor: number,
  changes: EndpointChanges,
  gsm: Gsm,
  site: Site,
  index: number,
): EndpointFacts {
  const h = endpointHash(seed, gsm.index, index);
  const change = changes.get(gsm.index, index);
  const enrolled = index >= gsm.baseCount;
  const baseLastChanged = anchor - between(hash2(h, 1), 1, 20 * 24) * HOUR_MS;
  const baseLastSeen = anchor - between(hash2(h, 2), 1, 72) * HOUR_MS;
  const prefix = pick(h, HOST_PREFIXES);
  const { hidden, deactivatedSince } = endpointFlags(h, anchor, enrolled, change);
  return {
    gsm,
    site,
    index,
    h,
    machineId: machineId(seed, gsm.index, index),
    hostName: `${prefix}-${(hash2(h, 4) % 0xffffff).toString(16).toUpperCase().padStart(6, '0')}`,
    os: pick(hash2(h, 5), OSES),
    isServer: prefix === 'SRV',
    clientVersion: `9.0.${between(hash2(h, 6), 1, 40)}.${between(hash2(h, 7), 100, 999)}`,
    firstSeen: enrolled
      ? (change?.enrolledAt ?? anchor)
      : anchor - between(hash2(h, 8), 30, 900) * DAY_MS,
    lastSeen:
      change?.offlineSince !== undefined
        ? change.offlineSince
        : change
          ? Math.max(change.changedAt, baseLastSeen)
          : baseLastSeen,
    lastChanged: change ? change.changedAt : baseLastChanged,
    hidden,
    deactivatedSince,
    infected: change?.infected,
    hasBeenInfected: change?.hasBeenInfected ?? hash2(h, 9) % 40 === 0,
    hasDnsp: site.dnspEnabled && hash2(h, 10) % 10 < 7,
    change,
    protectionOff: change?.protectionOff ?? false,
    uninstalled: change?.uninstalled ?? false,
    otherAv: change?.otherAv,
  };
}
