import type { HealthAlert } from '../../../lib/alerts/index.js';

/** The customer and the facts an alert names, as (label, text) pairs every card shows. */
export function namedFacts(alert: HealthAlert): [string, string][] {
  const pairs: [string, string][] = [
    ['Console', alert.consoleName ?? alert.gsm],
    ['Site', `${alert.siteName ?? alert.site} (${alert.site})`],
  ];
  if (alert.hostName !== null) pairs.push(['Host', alert.hostName]);
  if (alert.machineId !== null) pairs.push(['MachineID', alert.machineId]);
  pairs.push(['Severity', alert.severity]);
  for (const [name, value] of Object.entries(alert.facts))
    if (value !== null) pairs.push([name, String(value)]);
  return pairs;
}
