import { spikeKey } from './data/blocked-urls.js';
import type { Gsm } from './data/dataset.js';
import { endpointFacts } from './data/endpoint-facts.js';
import { machineId, parseMachineId } from './data/ids.js';
import { DAY_MS, isoSeconds } from './data/time-format.js';
import { parseFaultRules } from './fault-rules.js';
import { type EmulatorState, emptyStats } from './state.js';
import type { EmulatorInfo, EndpointAction, FaultRule } from './types.js';

/** How long before now an endpoint sent offline through the admin API was last seen. */
const OFFLINE_FOR_MS = 30 * DAY_MS;

/** The admin operations, shared by the HTTP admin API and the in-process handle. */
export class Control {
  constructor(private readonly state: EmulatorState) {}

  info(adminUrl: string): EmulatorInfo {
    const { state } = this;
    return {
      baseUrl: state.baseUrl,
      authUrl: state.authUrl,
      tokenUrl: `${state.authUrl}/auth/token`,
      adminUrl,
      now: new Date(state.clock.now()).toISOString(),
      client: state.options.clients[0] ?? { clientId: '', clientSecret: '' },
      users: state.options.users,
      idp: state.options.idp,
      gsms: state.data.gsms.map((gsm) => ({
        key: gsm.key,
        name: gsm.name,
        endpointCount: state.data.size(gsm),
        sites: gsm.sites.map((site) => ({
          key: site.key,
          id: site.id,
          name: site.name,
          gsmKey: gsm.key,
          endpointCount: site.count + gsm.enrolled.filter((s) => s === site.localIndex).length,
          dnspEnabled: site.dnspEnabled,
          licenseType: site.licenseType,
        })),
      })),
      carts: [...state.carts.values()].map((c) => ({
        vendorOrderCode: c.vendorOrderCode,
        type: c.type,
      })),
    };
  }

  advanceClock(seconds: number): Date {
    return new Date(this.state.clock.advance(seconds));
  }

  setFaults(faults: FaultRule[]): void {
    // Validate the whole list first: a bad rule leaves the rules in force untouched.
    this.state.faults.set(parseFaultRules(faults));
  }

  endpointAction(id: string, action: EndpointAction, threat?: string): void {
    const { state } = this;
    const address = parseMachineId(state.options.seed, id);
    const gsm = address && state.data.gsms[address.gsmIndex];
    if (!address || !gsm || address.index >= state.data.size(gsm))
      throw new RangeError(`unknown MachineID ${id}`);
    const now = state.clock.now();
    state.changes.update(gsm.index, address.index, now, (c) => {
      if (action === 'infect') {
        c.infected = { threat: threat ?? 'Trojan|Win32|Skywatch.TestThreat', since: now };
        c.hasBeenInfected = true;
      } else if (action === 'clean') c.infected = undefined;
      else if (action === 'hide') c.hidden = true;
      else if (action === 'unhide') c.hidden = false;
      else if (action === 'deactivate') c.deactivated = { since: now };
      else if (action === 'reactivate') c.deactivated = null;
      else if (action === 'protection-off') c.protectionOff = true;
      else if (action === 'protection-on') c.protectionOff = false;
      // Offline: last seen well before now, for as long as it stays offline.
      else if (action === 'go-offline') c.offlineSince = now - OFFLINE_FOR_MS;
      else if (action === 'come-online') c.offlineSince = undefined;
      else if (action === 'uninstall') c.uninstalled = true;
      else if (action === 'reinstall') c.uninstalled = false;
      else if (action === 'other-av-on') c.otherAv = threat ?? 'Other Antivirus';
      else if (action === 'other-av-off') c.otherAv = undefined;
      else if (action !== 'touch')
        throw new RangeError(`unknown endpoint action ${String(action)}`);
    });
    // Hiding and deactivating move an endpoint's blocked-URL actions between categories.
    state.blockedUrls.invalidate();
  }

  setSiteLicence(siteKey: string, days: number): void {
    const site = this.state.data.site(siteKey);
    if (!site) throw new RangeError(`unknown site ${siteKey}`);
    if (!Number.isInteger(days) || days < 0) throw new RangeError('days must be an integer >= 0');
    site.expiry = this.state.data.shape.anchor + days * DAY_MS;
  }

  machineIds(siteKey: string, limit = 10): string[] {
    const { state } = this;
    const site = state.data.site(siteKey);
    if (!site) throw new RangeError(`unknown site ${siteKey}`);
    const ids: string[] = [];
    for (const index of state.data.siteIndexes(site)) {
      if (ids.length >= limit) break;
      ids.push(machineId(state.options.seed, site.gsmIndex, index));
    }
    return ids;
  }

  enrol(siteKey: string, count: number): string[] {
    const { state } = this;
    if (!Number.isInteger(count) || count < 1 || count > 100_000) {
      throw new RangeError('count must be an integer from 1 to 100000');
    }
    const site = state.data.site(siteKey);
    if (!site) throw new RangeError(`unknown site ${siteKey}`);
    const now = state.clock.now();
    const ids = state.data.enrol(site, count).map((index) => {
      // Enrolment is a change: it gives the endpoint its FirstSeen and LastChanged.
      state.changes.update(site.gsmIndex, index, now, (change) => {
        change.enrolledAt = now;
      });
      return machineId(state.options.seed, site.gsmIndex, index);
    });
    // A site's blocked-URL actions are shared among its endpoints, new ones included.
    state.blockedUrls.invalidate();
    return ids;
  }

  addBlockedUrls(siteId: string, date: string, count: number): void {
    const site = this.state.data.siteById(siteId);
    if (!site) throw new RangeError(`unknown site id ${siteId}`);
    const day = Math.floor(Date.parse(`${date.slice(0, 10)}T00:00:00Z`) / DAY_MS);
    if (!Number.isFinite(day) || !Number.isInteger(count) || count < 0) {
      throw new RangeError('date (YYYY-MM-DD) and a non-negative integer count are required');
    }
    const key = spikeKey(site, day);
    this.state.spikes.set(key, (this.state.spikes.get(key) ?? 0) + count);
    this.state.blockedUrls.invalidate();
  }

  revokeTokens(): void {
    this.state.tokens.revokeAll();
  }

  stats() {
    return { ...this.state.stats, faultsInjected: this.state.faults.injected };
  }

  resetStats(): void {
    this.state.stats = emptyStats();
    this.state.faults.injected = 0;
  }

  /** A one-line description of an endpoint, for the CLI and the demo. */
  describe(gsm: Gsm, index: number): string {
    const { state } = this;
    const f = endpointFacts(
      state.options.seed,
      state.data.shape.anchor,
      state.changes,
      gsm,
      state.data.siteOf(gsm, index),
      index,
    );
    return `${f.hostName} (${f.machineId}) last changed ${isoSeconds(f.lastChanged)}`;
  }
}
