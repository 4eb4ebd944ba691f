import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Emulator,
  fixture,
  GROUPS,
  getOk,
  ISO_UTC_RE,
  type Json,
  KEYCODE_RE,
  type Page,
  type Query,
  start,
  token,
  UUID_RE,
} from './helpers.js';

/** Field kinds of spec 2.2 / 2.3; a trailing `?` means `|null`. */
type Kind = 'string' | 'integer' | 'boolean' | 'datetime' | 'keycode' | 'uuid' | 'hhmm' | 'any';
type Row = Record<string, `${Kind}` | `${Kind}?`>;

// biome-ignore format: a table of spec 2.2
const TOP: Row = {
  MasterKC: 'keycode', KC: 'keycode', MachineID: 'string', LastChanged: 'datetime',
  HostName: 'string', IPAddress: 'string', ClientVersion: 'string', OS: 'string',
  FirstSeen: 'datetime', LastSeen: 'datetime', TimesSeen: 'integer', Hidden: 'boolean',
  Deactivated: 'boolean', ActivationStatusTime: 'datetime?',
};

// biome-ignore format: a table of spec 2.2
const GROUP_FIELDS: Record<(typeof GROUPS)[number], Row> = {
  BasicInfo: {
    StatusRefreshTime: 'datetime', Managed: 'boolean', SKU: 'string', PartnerNumber: 'integer',
    Version: 'string', ActiveThreats: 'integer', DeviceType: 'string',
    AttentionRequired: 'boolean', Infected: 'boolean',
  },
  ExtendedInfo: {
    Uninstalled: 'boolean', Language: 'string', IsExpired: 'boolean', DaysRemaining: 'integer',
    ExpirationDate: 'datetime', RemediationEnabled: 'boolean', ThreatBlocked: 'boolean',
    WasJustInfected: 'boolean', HasBeenInfected: 'boolean', LatestThreat: 'string',
    CurrentlyCleaning: 'boolean', CleanShutdown: 'boolean', ManualAgentShutdown: 'boolean',
    AgentStartupTime: 'datetime', SystemState: 'integer', SystemStateUpdated: 'datetime',
  },
  TimesAndStats: {
    LastGarbageRemovalTime: 'datetime?', LastGarbageRemovalSize: 'integer',
    TotalGarbageRemovalSize: 'integer', LastScan: 'datetime', LastScanDuration: 'integer',
    LastScanCount: 'integer', ScanCount: 'integer', ThreatsRemoved: 'integer',
    LastQuickScan: 'datetime?', LastQuickScanDuration: 'integer', LastFullScan: 'datetime?',
    LastFullScanDuration: 'integer', LastCustomScan: 'datetime?', LastCustomScanDuration: 'integer',
    LastDeepScan: 'datetime?', LastDeepScanDuration: 'integer',
  },
  Scheduling: {
    ScheduledScansEnabled: 'boolean', ScheduledScanFrequency: 'integer', ScheduledScanTime: 'hhmm',
    ScanWhenIdle: 'boolean', ScanOnBootup: 'boolean', ActiveScans: 'integer',
  },
  EnabledFeatures: {
    ProtectionEnabled: 'boolean', RootkitShieldEnabled: 'boolean', WebThreatShieldEnabled: 'boolean',
    USBShieldEnabled: 'boolean', OfflineShieldEnabled: 'boolean', ScriptShieldStatus: 'any?',
    FirewallEnabled: 'boolean', InfraredEnabled: 'boolean', IDShieldEnabled: 'boolean',
    PhishingShieldEnabled: 'boolean', IsSilent: 'boolean',
  },
  SystemAnalyzer: {
    SystemAnalyzerScore: 'integer', HardwareScore: 'string', SoftwareScore: 'string', ThreatsScore: 'string',
  },
  OSAndVersions: {
    OSBuild: 'integer', OSPlatform: 'integer', OSLanguage: 'integer', CurrentUser: 'string',
    NumUsers: 'integer', MaxUsers: 'integer', internalIP: 'string', MACAddress: 'string',
    ADSTRING: 'string', Workgroup: 'string', DNSServer: 'string', BinType: 'string', Email: 'string',
    OtherAVProduct: 'string', OtherAVProductVersion: 'string', IsOtherAVEnabled: 'boolean',
    IsOtherAVUpdated: 'boolean', PrimaryBrowser: 'string', PrimaryBrowserVersion: 'string',
    IsFirewallEnabled: 'boolean', IsVirtualMachine: 'boolean', IPV4: 'string', IPV6: 'string',
    FQDN: 'string', NTDOMAIN: 'string', LDAPOID: 'string', LDAPDN: 'string',
  },
};

// biome-ignore format: a table of spec 2.3
const DNSP: Row = {
  HostName: 'string', IsVirtualMachine: 'boolean', DNSAgentStatus: 'string', InstalledDate: 'datetime',
  UninstalledDate: 'datetime?', AgentVersion: 'string', LastSeenDate: 'datetime',
  LastModifiedDate: 'datetime', TrafficCountLast24Hours: 'integer', DNSPolicyID: 'uuid',
  DNSPolicyName: 'string', MachineID: 'string', KC: 'keycode', MasterKC: 'keycode',
};

function check(kind: Kind, v: unknown): boolean {
  switch (kind) {
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return Number.isInteger(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'datetime':
      return typeof v === 'string' && ISO_UTC_RE.test(v) && !Number.isNaN(Date.parse(v));
    case 'keycode':
      return typeof v === 'string' && KEYCODE_RE.test(v);
    case 'uuid':
      return typeof v === 'string' && UUID_RE.test(v);
    case 'hhmm':
      return typeof v === 'string' && /^([01]\d|2[0-3]):[0-5]\d$/.test(v);
    case 'any':
      return v !== undefined;
  }
}

/** Collects every deviation as `path: value` so one failure shows them all. */
function deviations(obj: Json, row: Row, where: string): string[] {
  const out: string[] = [];
  for (const [field, spec] of Object.entries(row)) {
    const nullable = spec.endsWith('?');
    const kind = spec.replace('?', '') as Kind;
    if (!(field in obj)) out.push(`${where}.${field} missing`);
    else if (!(nullable && obj[field] === null) && !check(kind, obj[field]))
      out.push(`${where}.${field}: ${JSON.stringify(obj[field])} is not ${spec}`);
  }
  return out;
}

let em: Emulator;
let tok: string;
let fx: ReturnType<typeof fixture>;

beforeAll(async () => {
  em = await start();
  tok = await token(em);
  fx = fixture(em);
});
afterAll(() => em.close());

async function entries(path: string, query: Query = {}): Promise<Json[]> {
  const p = (await getOk(em, path, {
    token: tok,
    query: { batchSize: 1000, ...query },
  })) as unknown as Page;
  return p.QueryResults;
}

describe('Status entries (2.2)', () => {
  it('carry every top-level field and every group field with the spec types', async () => {
    const all = await entries(`/api/status/gsm/${fx.gsm.key}`);
    expect(all.length).toBe(fx.gsm.endpointCount);
    const problems = all.flatMap((e, i) => [
      ...deviations(e, TOP, `[${i}]`),
      ...GROUPS.flatMap((g) => deviations((e[g] ?? {}) as Json, GROUP_FIELDS[g], `[${i}].${g}`)),
    ]);
    expect(problems.slice(0, 20)).toEqual([]);
  });

  it('holds plausible values: MachineID of three segments, FirstSeen ≤ LastSeen ≤ now', async () => {
    const all = await entries(`/api/status/gsm/${fx.gsm.key}`);
    const now = em.now().getTime();
    for (const e of all) {
      expect(String(e.MachineID)).toMatch(/^[^:]+:::[^:]+:::[^:]+$/);
      const first = Date.parse(String(e.FirstSeen));
      const last = Date.parse(String(e.LastSeen));
      expect(first, String(e.MachineID)).toBeLessThanOrEqual(last);
      expect(last).toBeLessThanOrEqual(now);
      expect(Date.parse(String(e.LastChanged))).toBeLessThanOrEqual(now);
      expect(Number(e.TimesSeen)).toBeGreaterThanOrEqual(1);
    }
  });

  it('agrees with the DNSP entries of the same endpoints on HostName and keycodes', async () => {
    const agents = new Map(
      (await entries(`/api/status/site/${fx.site.key}`)).map((e) => [e.MachineID, e]),
    );
    const dnsp = await entries(`/api/status/site/dnsp/${fx.site.key}`);
    expect(dnsp.length).toBeGreaterThan(0);
    for (const d of dnsp) {
      const a = agents.get(d.MachineID);
      expect(a, String(d.MachineID)).toBeDefined();
      expect(d.HostName).toBe(a?.HostName);
      expect(d.KC).toBe(a?.KC);
      expect(d.MasterKC).toBe(a?.MasterKC);
    }
  });

  it('keeps flags consistent: IsExpired iff ExpirationDate has passed, Infected iff ActiveThreats > 0', async () => {
    const all = await entries(`/api/status/gsm/${fx.gsm.key}`);
    const now = em.now().getTime();
    for (const e of all) {
      const ext = e.ExtendedInfo as Json;
      const basic = e.BasicInfo as Json;
      expect(ext.IsExpired, String(e.MachineID)).toBe(Date.parse(String(ext.ExpirationDate)) < now);
      expect(basic.Infected, String(e.MachineID)).toBe(Number(basic.ActiveThreats) > 0);
    }
  });

  it('separates LatestThreat parts with | on an infected endpoint', async () => {
    const [id] = em.machineIds(fx.site.key, 1);
    em.endpointAction(id ?? '', 'infect', 'Trojan|Win32|Fields');
    const [e] = await entries(`/api/status/site/${fx.site.key}`, { machineId: id });
    const ext = e?.ExtendedInfo as Json;
    expect(ext.LatestThreat).toBe('Trojan|Win32|Fields');
    expect(String(ext.LatestThreat).split('|')).toHaveLength(3);
  });
});

describe('Status entries: admin actions show through', () => {
  const path = () => `/api/status/site/${fx.small.key}`;
  async function one(id: string): Promise<Json> {
    const [e] = await entries(path(), { machineId: id });
    if (!e) throw new Error(`no entry for ${id}`);
    return e;
  }

  it('marks an infected endpoint and clears all but HasBeenInfected on clean', async () => {
    const [id = ''] = em.machineIds(fx.small.key, 2).slice(1);
    em.advanceClock(10);
    em.endpointAction(id, 'infect', 'Worm|Linux|Admin');
    const infected = await one(id);
    const basic = infected.BasicInfo as Json;
    const ext = infected.ExtendedInfo as Json;
    expect(basic.Infected).toBe(true);
    expect(Number(basic.ActiveThreats)).toBeGreaterThanOrEqual(1);
    expect(ext.WasJustInfected).toBe(true);
    expect(ext.HasBeenInfected).toBe(true);
    expect(ext.LatestThreat).toBe('Worm|Linux|Admin');
    expect(Date.parse(String(infected.LastChanged))).toBe(em.now().getTime());

    em.advanceClock(10);
    em.endpointAction(id, 'clean');
    const cleaned = await one(id);
    expect((cleaned.BasicInfo as Json).Infected).toBe(false);
    expect((cleaned.BasicInfo as Json).ActiveThreats).toBe(0);
    expect((cleaned.ExtendedInfo as Json).WasJustInfected).toBe(false);
    expect((cleaned.ExtendedInfo as Json).HasBeenInfected).toBe(true);
    expect(Date.parse(String(cleaned.LastChanged))).toBe(em.now().getTime());
  });

  it('reflects hide/unhide and deactivate/reactivate in Hidden and Deactivated', async () => {
    const [id = ''] = em.machineIds(fx.small.key, 3).slice(2);
    em.endpointAction(id, 'hide');
    em.endpointAction(id, 'deactivate');
    const off = await one(id);
    expect(off.Hidden).toBe(true);
    expect(off.Deactivated).toBe(true);
    em.endpointAction(id, 'unhide');
    em.endpointAction(id, 'reactivate');
    const on = await one(id);
    expect(on.Hidden).toBe(false);
    expect(on.Deactivated).toBe(false);
  });
});

describe('DNSP entries (2.3)', () => {
  it.each(['site', 'gsm'])(
    'carry every field with the spec types on the %s route',
    async (route) => {
      const path =
        route === 'site'
          ? `/api/status/site/dnsp/${fx.site.key}`
          : `/api/status/gsm/dnsp/${fx.gsm.key}`;
      const all = await entries(path);
      expect(all.length).toBeGreaterThan(0);
      const problems = all.flatMap((e, i) => deviations(e, DNSP, `[${i}]`));
      expect(problems.slice(0, 20)).toEqual([]);
      for (const e of all) expect(e.MasterKC).toBe(fx.gsm.key);
    },
  );
});
