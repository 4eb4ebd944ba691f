import * as z from 'zod';
import { AgentStatus } from './agent-status.js';
import { Int } from './common.js';
import { DNSPAgentStatus } from './dnsp-status.js';

/**
 * Paged result envelope (2.1) over entries of `entry`.
 *
 * @example
 * const AgentPage = pagedEnvelope(AgentStatus);
 */
export function pagedEnvelope<E extends z.ZodType>(entry: E) {
  return z.looseObject({
    QueryResults: z.array(entry),
    ContinuationToken: z.string().nullable(),
    ContinuationURI: z.string().nullable(),
    Count: Int,
  });
}

export const AgentStatusPage = pagedEnvelope(AgentStatus);
export type AgentStatusPage = z.infer<typeof AgentStatusPage>;
export const DNSPStatusPage = pagedEnvelope(DNSPAgentStatus);
export type DNSPStatusPage = z.infer<typeof DNSPStatusPage>;
