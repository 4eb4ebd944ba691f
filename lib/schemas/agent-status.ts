import * as z from '../zod.js';
import { DateTime, Int, Keycode } from './common.js';
import type { Tolerant } from './tolerant.js';

// Spec 2.2. Groups are nested objects named after the group and present only when selected
// through returnedInfo, so each is optional on the entry.

export const BasicInfo = z.lazy(() =>
  z.looseObject({
    StatusRefreshTime: DateTime,
    Managed: z.boolean(),
    SKU: z.string(),
    PartnerNumber: Int,
    Version: z.string(),
    ActiveThreats: Int,
    DeviceType: z.string(),
    AttentionRequired: z.boolean(),
    Infected: z.boolean(),
  }),
);

export const ExtendedInfo = z.lazy(() =>
  z.looseObject({
    Uninstalled: z.boolean(),
    Language: z.string(),
    IsExpired: z.boolean(),
    DaysRemaining: Int,
    ExpirationDate: DateTime,
    RemediationEnabled: z.boolean(),
    ThreatBlocked: z.boolean(),
    WasJustInfected: z.boolean(),
    HasBeenInfected: z.boolean(),
    /** Parts separated by `|`. */
    LatestThreat: z.string(),
    CurrentlyCleaning: z.boolean(),
    CleanShutdown: z.boolean(),
    ManualAgentShutdown: z.boolean(),
    AgentStartupTime: DateTime,
    SystemState: Int,
    SystemStateUpdated: DateTime,
  }),
);

export const TimesAndStats = z.lazy(() =>
  z.looseObject({
    LastGarbageRemovalTime: z.nullable(DateTime),
    LastGarbageRemovalSize: Int,
    TotalGarbageRemovalSize: Int,
    LastScan: DateTime,
    LastScanDuration: Int,
    LastScanCount: Int,
    ScanCount: Int,
    ThreatsRemoved: Int,
    LastQuickScan: z.nullable(DateTime),
    LastQuickScanDuration: Int,
    LastFullScan: z.nullable(DateTime),
    LastFullScanDuration: Int,
    LastCustomScan: z.nullable(DateTime),
    LastCustomScanDuration: Int,
    LastDeepScan: z.nullable(DateTime),
    LastDeepScanDuration: Int,
  }),
);

export const Scheduling = z.lazy(() =>
  z.looseObject({
    ScheduledScansEnabled: z.boolean(),
    ScheduledScanFrequency: Int,
    /** HH:mm */
    ScheduledScanTime: z.string(),
    ScanWhenIdle: z.boolean(),
    ScanOnBootup: z.boolean(),
    ActiveScans: Int,
  }),
);

export const EnabledFeatures = z.lazy(() =>
  z.looseObject({
    ProtectionEnabled: z.boolean(),
    RootkitShieldEnabled: z.boolean(),
    WebThreatShieldEnabled: z.boolean(),
    USBShieldEnabled: z.boolean(),
    OfflineShieldEnabled: z.boolean(),
    // The spec gives no type, only "may be null".
    ScriptShieldStatus: z.nullable(z.union([z.string(), z.number(), z.boolean()])),
    FirewallEnabled: z.boolean(),
    InfraredEnabled: z.boolean(),
    IDShieldEnabled: z.boolean(),
    PhishingShieldEnabled: z.boolean(),
    IsSilent: z.boolean(),
  }),
);

export const SystemAnalyzer = z.lazy(() =>
  z.looseObject({
    SystemAnalyzerScore: Int,
    HardwareScore: z.string(),
    SoftwareScore: z.string(),
    ThreatsScore: z.string(),
  }),
);

export const OSAndVersions = z.lazy(() =>
  z.looseObject({
    OSBuild: Int,
    OSPlatform: Int,
    OSLanguage: Int,
    CurrentUser: z.string(),
    NumUsers: Int,
    MaxUsers: Int,
    internalIP: z.string(),
    MACAddress: z.string(),
    ADSTRING: z.string(),
    Workgroup: z.string(),
    DNSServer: z.string(),
    BinType: z.string(),
    Email: z.string(),
    OtherAVProduct: z.string(),
    OtherAVProductVersion: z.string(),
    IsOtherAVEnabled: z.boolean(),
    IsOtherAVUpdated: z.boolean(),
    PrimaryBrowser: z.string(),
    PrimaryBrowserVersion: z.string(),
    IsFirewallEnabled: z.boolean(),
    IsVirtualMachine: z.boolean(),
    IPV4: z.string(),
    IPV6: z.string(),
    FQDN: z.string(),
    NTDOMAIN: z.string(),
    LDAPOID: z.string(),
    LDAPDN: z.string(),
  }),
);

/** The groups of 2.2, by name: the values `returnedInfo` accepts. */
export const AGENT_STATUS_GROUPS = {
  BasicInfo,
  ExtendedInfo,
  TimesAndStats,
  Scheduling,
  EnabledFeatures,
  SystemAnalyzer,
  OSAndVersions,
} as const;
export type AgentStatusGroup = keyof typeof AGENT_STATUS_GROUPS;
export const AGENT_STATUS_GROUP_NAMES = Object.keys(AGENT_STATUS_GROUPS) as AgentStatusGroup[];

/** Agent status entry (2.2). */
export const AgentStatus = z.lazy(() =>
  z.looseObject({
    MasterKC: Keycode,
    KC: Keycode,
    MachineID: z.string(),
    LastChanged: DateTime,
    HostName: z.string(),
    IPAddress: z.string(),
    ClientVersion: z.string(),
    OS: z.string(),
    FirstSeen: DateTime,
    LastSeen: DateTime,
    TimesSeen: Int,
    Hidden: z.boolean(),
    Deactivated: z.boolean(),
    ActivationStatusTime: z.nullable(DateTime),
    BasicInfo: z.optional(BasicInfo),
    ExtendedInfo: z.optional(ExtendedInfo),
    TimesAndStats: z.optional(TimesAndStats),
    Scheduling: z.optional(Scheduling),
    EnabledFeatures: z.optional(EnabledFeatures),
    SystemAnalyzer: z.optional(SystemAnalyzer),
    OSAndVersions: z.optional(OSAndVersions),
  }),
);
/** As the tolerant reader delivers it: any field may be absent (lib/schemas/tolerant.ts). */
export type AgentStatus = Tolerant<z.infer<typeof AgentStatus>>;
