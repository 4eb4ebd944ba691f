import type { Dataset, Site } from './dataset.js';
import { endpointFlags, endpointHash } from './endpoint-facts.js';
import type { EndpointChanges } from './endpoint-state.js';
import { between, hash, hash2 } from './random.js';
import { DAY_MS } from './time-format.js';

/**
 * Blocked-URL actions of one site on one day, attributed to its endpoints and split by what
 * each endpoint is *now*: the spec's includeDeactivated / includeHidden select "endpoints
 * currently deactivated / hidden", so hiding an endpoint moves its past actions out of the
 * default count.
 */
export interface DayCounts {
  active: number;
  deactivated: number;
  hidden: number;
  /** Endpoints both hidden and deactivated count only when both flags are set. */
  both: number;
}

/** Extra actions added through the admin API, keyed by `siteId|dayNumber`; always active. */
export type Spikes = Map<string, number>;

export function spikeKey(site: Site, day: number): string {
  return `${site.id}|${day}`;
}

const cache = new Map<string, DayCounts>();

/** An integer share of a fractional mean, rounded up or down by a hash so sums stay fair. */
function integerShare(mean: number, h: number): number {
  const whole = Math.floor(mean);
  return whole + ((h % 10_000) / 10_000 < mean - whole ? 1 : 0);
}

/**
 * Counts of one site and day, before `until` when given (the partial day of endDate). Each
 * action has its own time of day, so counts of the categories add up exactly at any cut-off.
 * The site's level is seed-chosen with a day-to-day wobble and shared among its endpoints.
 */
export function dayCounts(
  data: Dataset,
  changes: EndpointChanges,
  site: Site,
  day: number,
  spikes: Spikes,
  until = Number.POSITIVE_INFINITY,
): DayCounts {
  const gsm = data.gsms[site.gsmIndex];
  const spike = spikes.get(spikeKey(site, day)) ?? 0;
  const cutoff = Math.min(DAY_MS, until - day * DAY_MS);
  const whole = cutoff >= DAY_MS;
  const key = `${site.id}|${day}|${changes.version}|${gsm?.enrolled.length}|${spike}`;
  const hit = whole ? cache.get(key) : undefined;
  if (hit) return hit;
  const { seed, anchor } = data.shape;
  const level = between(hash(seed, 0xb1, site.gsmIndex, site.localIndex), 20, 300);
  const wobble = 0.8 + (hash(seed, 0xb2, site.gsmIndex, site.localIndex, day) % 400) / 1000;
  const indexes = gsm ? [...data.siteIndexes(site)] : [];
  const mean = (level * wobble) / Math.max(1, indexes.length);
  // Spike actions are spread evenly over the day and always count as active.
  const counts: DayCounts = {
    active: Math.floor((spike * Math.max(0, cutoff)) / DAY_MS),
    deactivated: 0,
    hidden: 0,
    both: 0,
  };
  for (const index of indexes) {
    const h = endpointHash(seed, site.gsmIndex, index);
    const dayHash = hash2(h ^ day, 0xb10);
    // Weights 0..2 around the mean, so some endpoints are busier than others.
    const total = integerShare((mean * (dayHash % 2000)) / 1000, hash2(dayHash, 1));
    let actions = total;
    if (!whole) {
      actions = 0;
      for (let k = 0; k < total; k++) if (hash2(dayHash, 0x100 + k) % DAY_MS < cutoff) actions++;
    }
    if (actions === 0) continue;
    const flags = endpointFlags(
      h,
      anchor,
      index >= (gsm?.baseCount ?? 0),
      changes.get(site.gsmIndex, index),
    );
    const deactivated = flags.deactivatedSince !== null;
    if (flags.hidden && deactivated) counts.both += actions;
    else if (flags.hidden) counts.hidden += actions;
    else if (deactivated) counts.deactivated += actions;
    else counts.active += actions;
  }
  if (whole) {
    if (cache.size > 10_000) cache.clear();
    cache.set(key, counts);
  }
  return counts;
}

/** Actions selected by the two include flags. */
export function selected(
  c: DayCounts,
  includeDeactivated: boolean,
  includeHidden: boolean,
): number {
  return (
    c.active +
    (includeDeactivated ? c.deactivated : 0) +
    (includeHidden ? c.hidden : 0) +
    (includeDeactivated && includeHidden ? c.both : 0)
  );
}
