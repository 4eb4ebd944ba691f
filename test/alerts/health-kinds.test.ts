import { describe, expect, it } from 'vitest';
import {
  type EvaluationContext,
  evaluateEndpoint,
  evaluateSite,
} from '../../functions/infection-alerter/health/kinds.js';
import { DEFAULT_RULES } from '../../functions/infection-alerter/health/rules.js';

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
