import * as z from '../zod.js';
import { DateTime, Int, Keycode, Uuid } from './common.js';
import type { Tolerant } from './tolerant.js';

/** DNSP status entry (2.3). */
export const DNSPAgentStatus = z.lazy(() =>
  z.looseObject({
    HostName: z.string(),
    IsVirtualMachine: z.boolean(),
    DNSAgentStatus: z.string(),
    InstalledDate: DateTime,
    UninstalledDate: z.nullable(DateTime),
    AgentVersion: z.string(),
    LastSeenDate: DateTime,
    LastModifiedDate: DateTime,
    TrafficCountLast24Hours: Int,
    DNSPolicyID: Uuid,
    DNSPolicyName: z.string(),
    MachineID: z.string(),
    KC: Keycode,
    MasterKC: Keycode,
  }),
);
/** As the tolerant reader delivers it: any field may be absent (lib/schemas/tolerant.ts). */
export type DNSPAgentStatus = Tolerant<z.infer<typeof DNSPAgentStatus>>;
