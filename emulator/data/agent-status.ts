import type { EndpointFacts } from './endpoint-facts.js';
import { BYTE_HEX } from './ids.js';
import { between, hash2, pick } from './random.js';
import { isoSeconds as t } from './time-format.js';

/**
 * Agent status entries (spec 2.2) rendered straight to JSON text. Building objects and calling
 * JSON.stringify costs several times more for a full 1,000-entry page; every generated string
 * here comes from a safe alphabet, and the one free-text field (LatestThreat) is escaped.
 */

export const GROUPS = [
  'BasicInfo',
  'ExtendedInfo',
  'TimesAndStats',
  'Scheduling',
  'EnabledFeatures',
  'SystemAnalyzer',
  'OSAndVersions',
] as const;
export type GroupName = (typeof GROUPS)[number];

const DAY = 86_400_000;
const b = (v: boolean) => (v ? 'true' : 'false');
const nt = (ms: number | null) => (ms === null ? 'null' : `"${t(ms)}"`);

function top(f: EndpointFacts): string {
  const ip = `10.${f.gsm.index}.${(f.index >>> 8) & 255}.${f.index & 255}`;
  return (
    `"MasterKC":"${f.gsm.key}","KC":"${f.site.key}","MachineID":"${f.machineId}",` +
    `"LastChanged":"${t(f.lastChanged)}","HostName":"${f.hostName}","IPAddress":"${ip}",` +
    `"ClientVersion":"${f.clientVersion}","OS":"${f.os}","FirstSeen":"${t(f.firstSeen)}",` +
    `"LastSeen":"${t(f.lastSeen)}","TimesSeen":${between(hash2(f.h, 20), 10, 9000)},` +
    `"Hidden":${b(f.hidden)},"Deactivated":${b(f.deactivatedSince !== null)},` +
    `"ActivationStatusTime":${nt(f.deactivatedSince)}`
  );
}

function basicInfo(f: EndpointFacts): string {
  const threats = f.infected ? 1 + (hash2(f.h, 21) % 3) : 0;
  const device = f.isServer ? 'Server' : pick(hash2(f.h, 22), ['Workstation', 'Laptop']);
  return (
    `"StatusRefreshTime":"${t(f.lastSeen)}","Managed":true,"SKU":"WSAV",` +
    `"PartnerNumber":${100000 + f.gsm.index},"Version":"${f.clientVersion}",` +
    `"ActiveThreats":${threats},"DeviceType":"${device}",` +
    `"AttentionRequired":${b(f.infected !== undefined || f.deactivatedSince !== null || f.protectionOff)},` +
    `"Infected":${b(f.infected !== undefined)}`
  );
}

function extendedInfo(f: EndpointFacts, anchor: number): string {
  const expiry = f.site.expiry;
  const days = Math.max(0, Math.round((expiry - anchor) / DAY));
  const threat = f.infected ? JSON.stringify(f.infected.threat) : '""';
  return (
    `"Uninstalled":${b(f.uninstalled)},"Language":"${pick(hash2(f.h, 23), ['en', 'de', 'fr', 'es'])}",` +
    `"IsExpired":${b(days === 0)},"DaysRemaining":${days},"ExpirationDate":"${t(expiry)}",` +
    `"RemediationEnabled":true,"ThreatBlocked":${b(hash2(f.h, 24) % 7 === 0)},` +
    `"WasJustInfected":${b(f.infected !== undefined)},` +
    `"HasBeenInfected":${b(f.hasBeenInfected)},"LatestThreat":${threat},` +
    `"CurrentlyCleaning":false,"CleanShutdown":true,"ManualAgentShutdown":false,` +
    `"AgentStartupTime":"${t(f.lastSeen - between(hash2(f.h, 25), 1, 48) * 3_600_000)}",` +
    `"SystemState":${hash2(f.h, 26) % 4},"SystemStateUpdated":"${t(f.lastChanged)}"`
  );
}

function timesAndStats(f: EndpointFacts): string {
  const h = hash2(f.h, 27);
  const scan = f.lastSeen - between(h, 1, 30) * 3_600_000;
  const deep = h % 3 === 0 ? scan - 7 * DAY : null;
  return (
    `"LastGarbageRemovalTime":${nt(h % 4 === 0 ? null : scan - DAY)},` +
    `"LastGarbageRemovalSize":${h % 5000},"TotalGarbageRemovalSize":${h % 900000},` +
    `"LastScan":"${t(scan)}","LastScanDuration":${between(h, 20, 900)},` +
    `"LastScanCount":${between(h >>> 3, 1000, 90000)},"ScanCount":${between(h >>> 5, 10, 4000)},` +
    `"ThreatsRemoved":${h % 12},"LastQuickScan":"${t(scan)}","LastQuickScanDuration":${between(h, 20, 120)},` +
    `"LastFullScan":${nt(h % 2 === 0 ? scan - 3 * DAY : null)},"LastFullScanDuration":${between(h >>> 7, 300, 3600)},` +
    `"LastCustomScan":null,"LastCustomScanDuration":0,` +
    `"LastDeepScan":${nt(deep)},"LastDeepScanDuration":${deep === null ? 0 : between(h >>> 9, 600, 7200)}`
  );
}

function scheduling(f: EndpointFacts): string {
  const h = hash2(f.h, 28);
  const hh = String(h % 24).padStart(2, '0');
  return (
    `"ScheduledScansEnabled":true,"ScheduledScanFrequency":${pick(h, [1, 7, 30])},` +
    `"ScheduledScanTime":"${hh}:${h % 2 === 0 ? '00' : '30'}","ScanWhenIdle":${b(h % 3 === 0)},` +
    `"ScanOnBootup":${b(h % 5 === 0)},"ActiveScans":0`
  );
}

function enabledFeatures(f: EndpointFacts): string {
  const h = hash2(f.h, 29);
  return (
    `"ProtectionEnabled":${b(!f.protectionOff)},"RootkitShieldEnabled":true,"WebThreatShieldEnabled":true,` +
    `"USBShieldEnabled":${b(h % 2 === 0)},"OfflineShieldEnabled":true,` +
    `"ScriptShieldStatus":${h % 4 === 0 ? 'null' : '"Enabled"'},"FirewallEnabled":${b(h % 3 !== 0)},` +
    `"InfraredEnabled":true,"IDShieldEnabled":${b(h % 5 !== 0)},"PhishingShieldEnabled":true,` +
    `"IsSilent":false`
  );
}

const grade = (x: number) => pick(x, ['Good', 'Fair', 'Poor']);

function systemAnalyzer(f: EndpointFacts): string {
  const h = hash2(f.h, 30);
  return (
    `"SystemAnalyzerScore":${between(h, 40, 100)},"HardwareScore":"${grade(h >>> 3)}",` +
    `"SoftwareScore":"${grade(h >>> 6)}","ThreatsScore":"${f.infected ? 'Poor' : 'Good'}"`
  );
}

/** One octet of a MAC address drawn from `h`. */
const octet = (h: number, i: number) => BYTE_HEX[hash2(h, i) & 255] as string;

function osAndVersions(f: EndpointFacts): string {
  const h = hash2(f.h, 31);
  const mac = `${octet(h, 0)}:${octet(h, 1)}:${octet(h, 2)}:${octet(h, 3)}:${octet(h, 4)}:${octet(h, 5)}`;
  const domain = `corp${f.site.localIndex}.example.com`;
  return (
    `"OSBuild":${between(h, 17763, 26100)},"OSPlatform":2,"OSLanguage":1033,` +
    `"CurrentUser":"user${h % 500}","NumUsers":${between(h, 1, 3)},"MaxUsers":10,` +
    `"internalIP":"192.168.${h % 255}.${(h >>> 8) % 255}","MACAddress":"${mac}",` +
    `"ADSTRING":"CN=${f.hostName},OU=Computers,DC=corp${f.site.localIndex}","Workgroup":"CORP${f.site.localIndex}",` +
    `"DNSServer":"192.168.0.1","BinType":"x64","Email":"user${h % 500}@${domain}",` +
    (f.otherAv === undefined
      ? `"OtherAVProduct":"","OtherAVProductVersion":"","IsOtherAVEnabled":false,"IsOtherAVUpdated":false,`
      : `"OtherAVProduct":${JSON.stringify(f.otherAv)},"OtherAVProductVersion":"1.0","IsOtherAVEnabled":true,"IsOtherAVUpdated":true,`) +
    `"PrimaryBrowser":"${pick(h >>> 4, ['Edge', 'Chrome', 'Firefox'])}","PrimaryBrowserVersion":"${between(h, 120, 140)}.0",` +
    `"IsFirewallEnabled":${b(h % 3 !== 0)},"IsVirtualMachine":${b(h % 6 === 0)},` +
    `"IPV4":"192.168.${h % 255}.${(h >>> 8) % 255}","IPV6":"fe80::${(h & 0xffff).toString(16)}",` +
    `"FQDN":"${f.hostName.toLowerCase()}.${domain}","NTDOMAIN":"CORP${f.site.localIndex}",` +
    `"LDAPOID":"1.2.840.113556.1.4.${h % 9000}","LDAPDN":"CN=${f.hostName},DC=corp${f.site.localIndex}"`
  );
}

const RENDERERS: Record<GroupName, (f: EndpointFacts, anchor: number) => string> = {
  BasicInfo: basicInfo,
  ExtendedInfo: extendedInfo,
  TimesAndStats: timesAndStats,
  Scheduling: scheduling,
  EnabledFeatures: enabledFeatures,
  SystemAnalyzer: systemAnalyzer,
  OSAndVersions: osAndVersions,
};

/** One AgentStatus entry as JSON text with the chosen groups as nested objects. */
export function agentStatusJson(
  f: EndpointFacts,
  groups: readonly GroupName[],
  anchor: number,
): string {
  let out = `{${top(f)}`;
  for (const g of groups) out += `,"${g}":{${RENDERERS[g](f, anchor)}}`;
  return `${out}}`;
}
