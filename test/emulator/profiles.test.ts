import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../emulator/options.js';
import { PROFILES, withProfile } from '../../emulator/profiles.js';
import { renderReal } from '../../emulator/real/render.js';

describe('Emulator profiles', () => {
  it('leaves the contract profile exactly as the options were before profiles', () => {
    const { profile, rendering, surpriseShare, ...rest } = resolveOptions({});
    expect({ profile, rendering, surpriseShare }).toEqual({
      profile: 'contract',
      rendering: 'contract',
      surpriseShare: 0,
    });
    expect(rest.accessTokenTtlSeconds).toBe(300);
    expect(PROFILES.contract).toEqual({});
  });

  it('applies the real profile under the options given explicitly', () => {
    expect(resolveOptions({ profile: 'real' })).toMatchObject({
      rendering: 'real',
      accessTokenTtlSeconds: 299,
      surpriseShare: 0.1,
    });
    expect(
      resolveOptions({ profile: 'real', accessTokenTtlSeconds: 60, surpriseShare: 1 }),
    ).toMatchObject({ rendering: 'real', accessTokenTtlSeconds: 60, surpriseShare: 1 });
    // An option given as undefined is not given: the profile's value stays.
    expect(withProfile({ profile: 'real', accessTokenTtlSeconds: undefined })).toMatchObject({
      accessTokenTtlSeconds: 299,
    });
  });

  it('refuses an unknown profile, rendering or share naming the option', () => {
    expect(() => resolveOptions({ profile: 'prod' as never })).toThrow(
      'emulator option profile must be one of contract, real (got "prod")',
    );
    expect(() => resolveOptions({ rendering: 'xml' as never })).toThrow(
      'emulator option rendering must be contract or real',
    );
    expect(() => resolveOptions({ surpriseShare: 1.5 })).toThrow(
      'emulator option surpriseShare must be from 0 to 1 (got 1.5)',
    );
  });
});

describe('Real rendering', () => {
  const page = {
    QueryResults: Array.from({ length: 200 }, (_, i) => ({
      MachineID: `m-${i}`,
      LastChanged: '2026-06-11T13:00:00Z',
      LastSeen: '2026-06-12T09:00:00Z',
      FirstSeen: '2024-04-06T00:00:00Z',
      ClientVersion: '9.0',
      BasicInfo: { Infected: false, DeviceType: 'Laptop' },
    })),
    ContinuationToken: null,
  };

  it('is deterministic per seed, and another seed renders otherwise', () => {
    const a = JSON.stringify(renderReal(page, { seed: 1, surpriseShare: 0.1 }));
    expect(JSON.stringify(renderReal(page, { seed: 1, surpriseShare: 0.1 }))).toBe(a);
    expect(JSON.stringify(renderReal(page, { seed: 2, surpriseShare: 0.1 }))).not.toBe(a);
  });

  it('nulls and blanks only fields no function needs, in about the share asked', () => {
    const out = renderReal(page, { seed: 7, surpriseShare: 0.25 }) as typeof page;
    const hit = out.QueryResults.filter((e) => JSON.stringify(e).includes(':null'));
    expect(hit.length).toBeGreaterThan(20);
    expect(hit.length).toBeLessThan(80);
    for (const e of out.QueryResults) {
      expect(e.MachineID).toMatch(/^m-/);
      expect(e.BasicInfo.Infected).toBe(false);
      expect(e.LastChanged).toMatch(/^2026-06-11T13:00:00/);
    }
  });

  it('renders the instants of one record in more than one way', () => {
    const out = renderReal(page, { seed: 3, surpriseShare: 0 }) as typeof page;
    const mixed = out.QueryResults.filter(
      (e) => new Set([e.LastChanged, e.FirstSeen].map((t) => t.slice(19))).size > 1,
    );
    expect(mixed.length).toBeGreaterThan(50);
  });
});
