/**
 * Changes made to endpoints after generation (through the admin API). Only these are stored;
 * everything else is derived from the seed.
 */
export interface EndpointChange {
  /** When the endpoint last changed (ms); also its LastSeen. */
  changedAt: number;
  /** When an endpoint enrolled through the admin API first appeared: its FirstSeen for good. */
  enrolledAt?: number;
  infected?: { threat: string; since: number };
  /** Set once an endpoint was ever infected here. */
  hasBeenInfected?: boolean;
  hidden?: boolean;
  /** `null` once reactivated; undefined while as generated. */
  deactivated?: { since: number } | null;
  /** Health states set through the admin API (health alerts); undefined: as generated. */
  protectionOff?: boolean;
  /** LastSeen held at this instant while the endpoint is offline. */
  offlineSince?: number;
  uninstalled?: boolean;
  otherAv?: string;
}

export class EndpointChanges {
  private readonly byGsm = new Map<number, Map<number, EndpointChange>>();
  /** Latest change time; a modifiedSince after every base time only needs to look here. */
  latest = 0;
  /** Bumped on every change, so derived figures can be cached until something changes. */
  version = 0;

  get(gsmIndex: number, index: number): EndpointChange | undefined {
    return this.byGsm.get(gsmIndex)?.get(index);
  }

  update(gsmIndex: number, index: number, at: number, apply: (c: EndpointChange) => void): void {
    let gsm = this.byGsm.get(gsmIndex);
    if (!gsm) {
      gsm = new Map();
      this.byGsm.set(gsmIndex, gsm);
    }
    const change = gsm.get(index) ?? { changedAt: at };
    change.changedAt = at;
    apply(change);
    gsm.set(index, change);
    this.latest = Math.max(this.latest, at);
    this.version++;
  }

  /** Changed indexes of a GSM at or after `from`, ascending. */
  changedIndexes(gsmIndex: number, from: number): number[] {
    const gsm = this.byGsm.get(gsmIndex);
    if (!gsm) return [];
    return [...gsm.keys()].filter((i) => i >= from).sort((a, b) => a - b);
  }
}
