import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type EvaluationContext,
  evaluateEndpoint,
  evaluateSite,
} from '../../functions/infection-alerter/health/kinds.js';
import { DEFAULT_RULES } from '../../functions/infection-alerter/health/rules.js';
import type { HealthKind } from '../../lib/alerts/index.js';

const NOW = Date.parse('2026-06-15T12:00:00Z');
const ctx: EvaluationContext = {
  gsm: 'G',
  names: { consoleName: 'Acme MSP', siteName: (s) => (s === 'S1' ? 'Dental Clinic' : null) },
  now: NOW,
  rule: (_site, kind) => DEFAULT_RULES[kind],
};
const base = {
  MachineID: 'M1',
  KC: 'S1',
  HostName: 'WS-1',
  LastChanged: '2026-06-15T11:00:00Z',
  LastSeen: '2026-06-15T11:00:00Z',
};

describe('Health kinds', () => {
  it('skips and counts a kind whose fields an entry lacks, and still judges the others', () => {
    // No groups at all: only what the top level tells (offline) can be judged.
    const { observations, skipped } = evaluateEndpoint({ ...base }, ctx);
    expect(observations.map((o) => `${o.kind}:${o.active}`)).toEqual(['offline:false']);
    expect(skipped.sort()).toEqual(
      ['attention-required', 'infected', 'other-antivirus', 'protection-off', 'uninstalled'].sort(),
    );
  });

  it('reads nulls as missing, never as false', () => {
    const entry = {
      ...base,
      LastSeen: null,
      EnabledFeatures: { ProtectionEnabled: null },
      BasicInfo: { AttentionRequired: null, Infected: true },
    };
    const { observations, skipped } = evaluateEndpoint(entry, ctx);
    expect(skipped).toEqual(
      expect.arrayContaining(['protection-off', 'offline', 'attention-required']),
    );
    expect(observations.find((o) => o.kind === 'infected')?.active).toBe(true);
  });

  it('tells clean only from BasicInfo.Infected: without it an entry neither triggers nor resolves', () => {
    const infected = (basic: Record<string, unknown>, extended: Record<string, unknown> = {}) => {
      const entry = { ...base, BasicInfo: basic, ExtendedInfo: extended };
      const { observations, skipped } = evaluateEndpoint(entry, ctx);
      return skipped.includes('infected')
        ? 'unknown'
        : observations.find((o) => o.kind === 'infected')?.active;
    };
    expect(infected({ Infected: null, ActiveThreats: 0 })).toBe('unknown');
    expect(infected({ ActiveThreats: 0 }, { WasJustInfected: false })).toBe('unknown');
    expect(infected({ Infected: false, ActiveThreats: 0 })).toBe(false);
    // Any one sign of a threat is enough to tell infected.
    expect(infected({ Infected: null, ActiveThreats: 2 })).toBe(true);
    expect(infected({ Infected: null }, { WasJustInfected: true })).toBe(true);
  });

  it('counts days since LastSeen against the threshold', () => {
    const entry = { ...base, LastSeen: '2026-06-08T11:00:00Z' };
    const offline = evaluateEndpoint(entry, ctx).observations.find((o) => o.kind === 'offline');
    expect(offline).toMatchObject({ active: true, alert: { facts: { daysSinceSeen: 7 } } });
    expect(offline?.alert.title).toBe('Not seen: WS-1 at Dental Clinic');
  });

  it('reads a LastSeen and LastChanged without a zone as UTC, and carries them normalised', () => {
    const entry = { ...base, LastSeen: '2026-06-08T11:00:00', LastChanged: '2026-06-15T11:00:00' };
    const offline = evaluateEndpoint(entry, ctx).observations.find((o) => o.kind === 'offline');
    expect(offline?.alert).toMatchObject({
      occurredAt: '2026-06-15T11:00:00.000Z',
      facts: { daysSinceSeen: 7, lastSeen: '2026-06-08T11:00:00.000Z' },
    });
  });

  it('tells an expiring licence from an expired one', () => {
    const facts = (isExpired: boolean, daysRemaining: number) =>
      evaluateSite('S1', { isExpired, daysRemaining, expirationDate: null }, ctx).map(
        (o) => `${o.kind}:${o.active}`,
      );
    expect(facts(false, 31)).toEqual(['licence-expiring:false', 'licence-expired:false']);
    expect(facts(false, 30)).toEqual(['licence-expiring:true', 'licence-expired:false']);
    expect(facts(true, 0)).toEqual(['licence-expiring:false', 'licence-expired:true']);
  });
});

/** An endpoint as the service shows a healthy agent, every group the endpoint kinds read. */
const healthy = (attention: boolean) => ({
  ...base,
  BasicInfo: { Infected: false, ActiveThreats: 0, AttentionRequired: attention },
  ExtendedInfo: { WasJustInfected: false, LatestThreat: '', Uninstalled: false },
  EnabledFeatures: { ProtectionEnabled: true },
  OSAndVersions: { IsOtherAVEnabled: false },
});
type Entry = ReturnType<typeof healthy>;

/** Each more specific endpoint kind, and how an entry shows it. */
const SPECIFIC: Record<string, (e: Entry) => Entry> = {
  infected: (e) => ({
    ...e,
    BasicInfo: { ...e.BasicInfo, Infected: true, ActiveThreats: 1 },
    ExtendedInfo: { ...e.ExtendedInfo, WasJustInfected: true, LatestThreat: 'Trojan|Win32' },
  }),
  'protection-off': (e) => ({ ...e, EnabledFeatures: { ProtectionEnabled: false } }),
  offline: (e) => ({ ...e, LastSeen: '2026-06-01T11:00:00Z' }),
  uninstalled: (e) => ({ ...e, ExtendedInfo: { ...e.ExtendedInfo, Uninstalled: true } }),
  'other-antivirus': (e) => ({ ...e, OSAndVersions: { IsOtherAVEnabled: true } }),
};
const active = (entry: Record<string, unknown>, context = ctx) =>
  evaluateEndpoint(entry, context)
    .observations.filter((o) => o.active)
    .map((o) => o.kind)
    .sort();

describe('Health kinds: attention required', () => {
  it('raises attention-required for an agent asking for attention with nothing more specific wrong', () => {
    expect(active(healthy(true))).toEqual(['attention-required']);
    expect(active(healthy(false))).toEqual([]);
  });

  it.each(Object.keys(SPECIFIC))('gives an agent that is %s that one alert alone', (kind) => {
    const show = SPECIFIC[kind] ?? ((e: Entry) => e);
    // The service sets AttentionRequired on such an agent; the specific kind says it better.
    expect(active(show(healthy(true)))).toEqual([kind]);
    const attention = evaluateEndpoint(show(healthy(true)), ctx).observations.find(
      (o) => o.kind === 'attention-required',
    );
    // Judged (and clear), not skipped: an alert it had open before resolves.
    expect(attention?.active).toBe(false);
  });

  it('raises it when the specific kind that would name the problem is switched off', () => {
    const noInfected: EvaluationContext = {
      ...ctx,
      rule: (_site, kind) => ({ ...DEFAULT_RULES[kind], enabled: kind !== 'infected' }),
    };
    const infected = SPECIFIC.infected?.(healthy(true)) ?? healthy(true);
    expect(active(infected, noInfected)).toEqual(['attention-required']);
  });

  it('holds for any mix of conditions: active only when flagged and nothing specific is', () => {
    const kinds = Object.keys(SPECIFIC);
    fc.assert(
      fc.property(fc.boolean(), fc.subarray(kinds), (flagged, wrong) => {
        const entry = wrong.reduce((e, k) => SPECIFIC[k]?.(e) ?? e, healthy(flagged));
        const expected: string[] = [...wrong];
        if (flagged && wrong.length === 0) expected.push('attention-required');
        expect(active(entry)).toEqual(expected.sort() as HealthKind[]);
      }),
    );
  });
});
