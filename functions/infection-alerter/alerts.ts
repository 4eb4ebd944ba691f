import type { Alert } from '../../lib/aws/index.js';
import type { AgentStatus } from '../../lib/index.js';
import type { InfectionReading } from './infection-state.js';

export interface Detected {
  entry: AgentStatus;
  reading: InfectionReading;
}

function details(d: Detected) {
  return {
    machineId: d.entry.MachineID,
    hostName: d.entry.HostName,
    site: d.entry.KC,
    ipAddress: d.entry.IPAddress,
    os: d.entry.OS,
    threat: d.reading.threat,
    activeThreats: d.reading.activeThreats,
    lastChanged: d.entry.LastChanged,
    lastSeen: d.entry.LastSeen,
  };
}

export function infectionAlert(gsm: string, d: Detected): Alert {
  const threat = d.reading.threat.join('|') || 'unknown threat';
  return {
    kind: 'infection',
    severity: 'critical',
    gsm,
    site: d.entry.KC,
    subject: `Infected: ${d.entry.HostName}: ${threat}`,
    summary: `${d.entry.HostName} (${d.entry.MachineID}) in site ${d.entry.KC} reports ${d.reading.activeThreats} active threat(s): ${threat}. Last changed ${d.entry.LastChanged}.`,
    occurredAt: d.entry.LastChanged,
    details: details(d),
  };
}

/** One alert instead of a flood when many endpoints turn at once (an outbreak, or a bad rule). */
export function summaryAlert(gsm: string, all: Detected[], listed: number): Alert {
  const sites = [...new Set(all.map((d) => d.entry.KC))];
  return {
    kind: 'infection-summary',
    severity: 'critical',
    gsm,
    subject: `${all.length} endpoints newly infected in ${sites.length} site(s)`,
    summary: `${all.length} endpoints of GSM ${gsm} turned infected since the last check, in sites ${sites.join(', ')}.`,
    occurredAt:
      all
        .map((d) => d.entry.LastChanged)
        .sort()
        .at(-1) ?? '',
    details: {
      count: all.length,
      sites,
      endpoints: all.slice(0, listed).map(details),
      truncated: all.length > listed,
    },
  };
}

export function cleanedAlert(gsm: string, d: Detected): Alert {
  return {
    kind: 'infection-cleaned',
    severity: 'info',
    gsm,
    site: d.entry.KC,
    subject: `Clean again: ${d.entry.HostName}`,
    summary: `${d.entry.HostName} (${d.entry.MachineID}) in site ${d.entry.KC} no longer reports a threat.`,
    occurredAt: d.entry.LastChanged,
    details: details(d),
  };
}
