/**
 * What counts as infected, read from the groups the alerter asks for (BasicInfo,
 * ExtendedInfo). Any one signal is enough: the service sets them at slightly different times.
 */
export interface InfectionSignals {
  BasicInfo?: { Infected?: boolean; ActiveThreats?: number } | undefined;
  ExtendedInfo?: { WasJustInfected?: boolean; LatestThreat?: string } | undefined;
}

export interface InfectionReading {
  infected: boolean;
  activeThreats: number;
  /** LatestThreat split on `|` (spec 2.2), empty when none. */
  threat: string[];
}

export function readInfection(entry: InfectionSignals): InfectionReading {
  const activeThreats = entry.BasicInfo?.ActiveThreats ?? 0;
  const infected =
    entry.BasicInfo?.Infected === true ||
    entry.ExtendedInfo?.WasJustInfected === true ||
    activeThreats > 0;
  const latest = entry.ExtendedInfo?.LatestThreat ?? '';
  return { infected, activeThreats, threat: latest === '' ? [] : latest.split('|') };
}
