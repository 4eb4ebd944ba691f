import type { HealthAlert, HealthKind } from '../../../lib/alerts/index.js';
import { alertId, KIND_TEXT } from '../../../lib/alerts/index.js';
import { DAY_MS, utcInstant } from '../../../lib/index.js';
import { readInfection } from '../infection-state.js';
import type { KindRule } from './rules.js';

/** One kind's condition as one entry shows it, with the alert it would send. */
export interface Observation {
  kind: HealthKind;
  active: boolean;
  alert: Omit<HealthAlert, 'schema' | 'eventId' | 'action' | 'openedAt'>;
}

/** Names the alert shows, read from the usage reports (null when unknown). */
export interface Names {
  consoleName: string | null;
  siteName(site: string): string | null;
}

export interface EvaluationContext {
  gsm: string;
  names: Names;
  now: number;
  rule(site: string, kind: HealthKind): KindRule;
}

/**
 * The status entry as read defensively: another change makes fields optional or null, and a
 * kind whose fields are missing is skipped (and counted), never guessed.
 */
type Loose = Record<string, unknown>;
const group = (entry: Loose, name: string): Loose | undefined => {
  const g = entry[name];
  return g && typeof g === 'object' ? (g as Loose) : undefined;
};
const bool = (v: unknown) => (typeof v === 'boolean' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
/**
 * A service instant normalised (UTC, milliseconds, `Z`) whatever its rendering, or undefined
 * when absent or not an instant: the service writes some without a zone, which `Date.parse`
 * would read as local time.
 */
const instant = (v: unknown) => {
  const text = str(v);
  if (text === undefined) return undefined;
  try {
    return utcInstant(text);
  } catch {
    return undefined;
  }
};

/**
 * The fields every alert of a kind carries about its subject: its stable id (the endpoint's, or
 * the site's when there is no endpoint), severity, and the names of console, site and host.
 */
export function whoAndWhere(
  ctx: EvaluationContext,
  kind: HealthKind,
  site: string,
  endpoint: { machineId: string | null; hostName: string | null },
) {
  return {
    id: endpoint.machineId
      ? alertId(kind, { machineId: endpoint.machineId })
      : alertId(kind, { site }),
    kind,
    severity: ctx.rule(site, kind).severity,
    gsm: ctx.gsm,
    consoleName: ctx.names.consoleName,
    site,
    siteName: ctx.names.siteName(site),
    hostName: endpoint.hostName,
    machineId: endpoint.machineId,
  };
}

/** The endpoint kinds that name what is wrong; any one active silences `attention-required`. */
const SPECIFIC: ReadonlySet<HealthKind> = new Set([
  'infected',
  'protection-off',
  'offline',
  'uninstalled',
  'other-antivirus',
]);

/** What every kind of one endpoint says, and which kinds the entry could not tell. */
export function evaluateEndpoint(
  entry: Loose,
  ctx: EvaluationContext,
): { observations: Observation[]; skipped: HealthKind[] } {
  const machineId = str(entry.MachineID);
  const site = str(entry.KC);
  if (!machineId || !site) return { observations: [], skipped: ['infected'] };
  const hostName = str(entry.HostName) ?? null;
  const basic = group(entry, 'BasicInfo');
  const extended = group(entry, 'ExtendedInfo');
  const features = group(entry, 'EnabledFeatures');
  const os = group(entry, 'OSAndVersions');
  const lastSeen = instant(entry.LastSeen);
  const occurredAt = instant(entry.LastChanged) ?? new Date(ctx.now).toISOString();

  const observations: Observation[] = [];
  const skipped: HealthKind[] = [];
  const who = `${hostName ?? machineId} (${machineId})`;
  const where = ctx.names.siteName(site) ?? site;
  const add = (kind: HealthKind, active: boolean | undefined, facts: HealthAlert['facts']) => {
    if (active === undefined) {
      skipped.push(kind);
      return;
    }
    const text = KIND_TEXT[kind];
    observations.push({
      kind,
      active,
      alert: {
        ...whoAndWhere(ctx, kind, site, { machineId, hostName }),
        title: `${text.title}: ${hostName ?? machineId} at ${where}`,
        summary: active
          ? `${text.title}: ${who} at site ${where}.`
          : `${who} at site ${where} ${text.cleared}.`,
        occurredAt,
        facts: { ...facts, lastSeen: lastSeen ?? null },
      },
    });
  };
  const on = (kind: HealthKind) => ctx.rule(site, kind).enabled;

  if (on('infected')) {
    if (!basic && !extended) add('infected', undefined, {});
    else {
      const r = readInfection({ BasicInfo: basic, ExtendedInfo: extended } as never);
      // Any sign of a threat is enough to tell infected; only BasicInfo.Infected tells clean,
      // and reading its absence as clean would close an open infection.
      const told = r.infected || bool(basic?.Infected) !== undefined;
      add('infected', told ? r.infected : undefined, {
        threat: r.threat.join('|') || null,
        activeThreats: r.activeThreats,
      });
    }
  }
  if (on('protection-off')) {
    const shields = ctx.rule(site, 'protection-off').shields;
    const values = shields.map((s) => [s, bool(features?.[s])] as const);
    if (!features || values.some(([, v]) => v === undefined)) add('protection-off', undefined, {});
    else {
      const off = values.filter(([, v]) => v === false).map(([s]) => s);
      add('protection-off', off.length > 0, { shieldsOff: off.join(', ') || null });
    }
  }
  if (on('offline')) {
    const seen = lastSeen === undefined ? Number.NaN : Date.parse(lastSeen);
    if (Number.isNaN(seen)) add('offline', undefined, {});
    else {
      const days = Math.floor((ctx.now - seen) / DAY_MS);
      add('offline', days >= ctx.rule(site, 'offline').days, { daysSinceSeen: days });
    }
  }
  if (on('uninstalled')) add('uninstalled', bool(extended?.Uninstalled), {});
  if (on('other-antivirus')) {
    const enabled = bool(os?.IsOtherAVEnabled);
    add('other-antivirus', enabled, {
      otherProduct: str(os?.OtherAVProduct) || null,
      otherProductVersion: str(os?.OtherAVProductVersion) || null,
    });
  }
  if (on('attention-required')) {
    // The agent asks for attention whenever something is wrong with it (the service sets
    // AttentionRequired on an infected or unprotected agent): one problem, one alert, so this
    // kind stands only for what no more specific kind names.
    const flagged = bool(basic?.AttentionRequired);
    const named = observations.some((o) => o.active && SPECIFIC.has(o.kind));
    add('attention-required', flagged === undefined ? undefined : flagged && !named, {});
  }
  return { observations, skipped };
}

/** The licence facts of a site, from any one of its entries (the licence is the keycode's). */
export interface LicenceFacts {
  isExpired: boolean;
  daysRemaining: number;
  expirationDate: string | null;
}

export function readLicence(entry: Loose): LicenceFacts | undefined {
  const extended = group(entry, 'ExtendedInfo');
  const isExpired = bool(extended?.IsExpired);
  const daysRemaining = num(extended?.DaysRemaining);
  if (isExpired === undefined || daysRemaining === undefined) return undefined;
  return { isExpired, daysRemaining, expirationDate: str(extended?.ExpirationDate) ?? null };
}

/** The site kinds (licence expiring, expired) of one site. */
export function evaluateSite(
  site: string,
  licence: LicenceFacts,
  ctx: EvaluationContext,
): Observation[] {
  const where = ctx.names.siteName(site) ?? site;
  const facts = {
    daysRemaining: licence.daysRemaining,
    expirationDate: licence.expirationDate,
    isExpired: licence.isExpired,
  };
  const make = (kind: HealthKind, active: boolean): Observation => ({
    kind,
    active,
    alert: {
      ...whoAndWhere(ctx, kind, site, { machineId: null, hostName: null }),
      title: `${KIND_TEXT[kind].title}: site ${where}`,
      summary: active
        ? kind === 'licence-expired'
          ? `The licence of site ${where} (${site}) expired on ${licence.expirationDate ?? 'an unknown date'}.`
          : `The licence of site ${where} (${site}) expires in ${licence.daysRemaining} day(s), on ${licence.expirationDate ?? 'an unknown date'}.`
        : `Site ${where} (${site}): ${KIND_TEXT[kind].cleared}.`,
      occurredAt: new Date(ctx.now).toISOString(),
      facts,
    },
  });
  const out: Observation[] = [];
  const expiring = ctx.rule(site, 'licence-expiring');
  if (expiring.enabled)
    out.push(
      make('licence-expiring', !licence.isExpired && licence.daysRemaining <= expiring.days),
    );
  if (ctx.rule(site, 'licence-expired').enabled)
    out.push(make('licence-expired', licence.isExpired));
  return out;
}
