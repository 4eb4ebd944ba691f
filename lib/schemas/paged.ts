import * as z from '../zod.js';
import { AgentStatus } from './agent-status.js';
import { Int } from './common.js';
import { DNSPAgentStatus } from './dnsp-status.js';

/**
 * Paged result envelope (2.1) over entries of `entry`.
 *
 * @example
 * const AgentPage = pagedEnvelope(AgentStatus);
 */
export function pagedEnvelope<E extends z.core.$ZodType>(entry: E) {
  return z.looseObject({
    QueryResults: z.array(entry),
    ContinuationToken: z.nullable(z.string()),
    ContinuationURI: z.nullable(z.string()),
    Count: Int,
  });
}

export const AgentStatusPage = z.lazy(() => pagedEnvelope(AgentStatus));
export type AgentStatusPage = z.infer<typeof AgentStatusPage>;
export const DNSPStatusPage = z.lazy(() => pagedEnvelope(DNSPAgentStatus));
export type DNSPStatusPage = z.infer<typeof DNSPStatusPage>;
/**
 * A status page (4.1–4.4) whose entries are left as the service sent them: only the envelope
 * is read. For callers that keep entries whole without reading a field of them.
 */
export const AsSentStatusPage = z.lazy(() => pagedEnvelope(z.unknown()));
