import type { Alert } from '../../lib/aws/index.js';
import type { AgentStatus, AlertableEndpoint } from '../../lib/index.js';
import { utcInstant } from '../../lib/index.js';
import type * as z from '../../lib/zod.js';
import type { InfectionReading } from './infection-state.js';
import type { EndpointFacts } from './records.js';

/** LastSeen normalised, or LastChanged when the service left it out or wrote it unreadably. */
function lastSeen(entry: AgentStatus, changed: string): string {
  try {
    return entry.LastSeen ? utcInstant(entry.LastSeen) : changed;
  } catch {
    return changed;
  }
}

/**
 * What an alert says about an endpoint, taken from its status entry when the change was seen:
 * what the alerter needs (`needed`, checked and normalised), and what only makes the alert
 * easier to read, with a placeholder where the service left it out.
 */
export function endpointFacts(
  entry: AgentStatus,
  needed: z.output<typeof AlertableEndpoint>,
  reading: InfectionReading,
): EndpointFacts {
  return {
    machineId: needed.MachineID,
    hostName: entry.HostName || needed.MachineID,
    site: needed.KC,
    ipAddress: entry.IPAddress ?? '',
    os: entry.OS ?? '',
    threat: reading.threat,
    activeThreats: reading.activeThreats,
    lastChanged: needed.LastChanged,
    lastSeen: lastSeen(entry, needed.LastChanged),
  };
}

export function infectionAlert(gsm: string, e: EndpointFacts): Alert {
  const threat = e.threat.join('|') || 'unknown threat';
  return {
    kind: 'infection',
    severity: 'critical',
    gsm,
    site: e.site,
    subject: `Infected: ${e.hostName}: ${threat}`,
    summary: `${e.hostName} (${e.machineId}) in site ${e.site} reports ${e.activeThreats} active threat(s): ${threat}. Last changed ${e.lastChanged}.`,
    occurredAt: e.lastChanged,
    details: { ...e },
  };
}

/** One alert instead of a flood when many endpoints turn at once (an outbreak, or a bad rule). */
export function summaryAlert(gsm: string, all: EndpointFacts[], listed: number): Alert {
  const sites = [...new Set(all.map((e) => e.site))];
  return {
    kind: 'infection-summary',
    severity: 'critical',
    gsm,
    subject: `${all.length} endpoints newly infected in ${sites.length} site(s)`,
    summary: `${all.length} endpoints of GSM ${gsm} turned infected since the last check, in sites ${sites.join(', ')}.`,
    occurredAt:
      all
        .map((e) => e.lastChanged)
        .sort()
        .at(-1) ?? '',
    details: {
      count: all.length,
      sites,
      endpoints: all.slice(0, listed),
      truncated: all.length > listed,
    },
  };
}

export function cleanedAlert(gsm: string, e: EndpointFacts): Alert {
  return {
    kind: 'infection-cleaned',
    severity: 'info',
    gsm,
    site: e.site,
    subject: `Clean again: ${e.hostName}`,
    summary: `${e.hostName} (${e.machineId}) in site ${e.site} no longer reports a threat.`,
    occurredAt: e.lastChanged,
    details: { ...e },
  };
}
