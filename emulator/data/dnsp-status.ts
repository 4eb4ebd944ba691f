import type { EndpointFacts } from './endpoint-facts.js';
import { between, hash2 } from './random.js';
import { isoSeconds as t } from './time-format.js';

/** DNSP agent status (spec 2.3) of an endpoint that has a DNS-protection agent, as JSON text. */
export function dnspStatusJson(f: EndpointFacts): string {
  const h = hash2(f.h, 40);
  const uninstalled = f.deactivatedSince;
  return (
    `{"HostName":"${f.hostName}","IsVirtualMachine":${h % 6 === 0 ? 'true' : 'false'},` +
    `"DNSAgentStatus":"${uninstalled === null ? 'Installed' : 'Uninstalled'}",` +
    `"InstalledDate":"${t(f.firstSeen)}","UninstalledDate":${uninstalled === null ? 'null' : `"${t(uninstalled)}"`},` +
    `"AgentVersion":"3.${between(h, 1, 9)}.${between(h >>> 4, 0, 40)}","LastSeenDate":"${t(f.lastSeen)}",` +
    `"LastModifiedDate":"${t(f.lastChanged)}","TrafficCountLast24Hours":${uninstalled === null ? between(h >>> 8, 0, 25000) : 0},` +
    `"DNSPolicyID":"${f.site.dnspPolicyId}","DNSPolicyName":"${f.site.dnspPolicyName}",` +
    `"MachineID":"${f.machineId}","KC":"${f.site.key}","MasterKC":"${f.gsm.key}"}`
  );
}
