import { describe, expect, it } from 'vitest';
import { readInfection } from '../../functions/infection-alerter/infection-state.js';

describe('Function: readInfection', () => {
  it('treats any one signal as infected and splits the threat on |', () => {
    expect(readInfection({ BasicInfo: { Infected: true } }).infected).toBe(true);
    expect(readInfection({ BasicInfo: { ActiveThreats: 2 } })).toMatchObject({
      infected: true,
      activeThreats: 2,
    });
    expect(
      readInfection({ ExtendedInfo: { WasJustInfected: true, LatestThreat: 'Trojan|Win32|X' } }),
    ).toEqual({
      infected: true,
      activeThreats: 0,
      threat: ['Trojan', 'Win32', 'X'],
    });
  });

  it('reads a clean endpoint as clean even with a past threat name', () => {
    expect(
      readInfection({
        BasicInfo: { Infected: false, ActiveThreats: 0 },
        ExtendedInfo: { LatestThreat: 'Old|Threat' },
      }).infected,
    ).toBe(false);
  });
});
