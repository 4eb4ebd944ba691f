import type { StateStore } from '../../lib/aws/index.js';
import {
  type AgentStatus,
  type AgentStatusGroup,
  AlertableEndpoint,
  type SkywatchClient,
} from '../../lib/index.js';
import { endpointFacts } from './alerts.js';
import { claimTransition, type HeldClaim, type Lease } from './claims.js';
import { readInfection } from './infection-state.js';
import { type PagePosition, walkPages } from './page-walk.js';
import { EndpointRecord, endpointKey } from './records.js';
import type { WalkBudget } from './walk-budget.js';

/**
 * What a walk found so far; filled in as it goes, so a walk that fails or pauses keeps its
 * claims and its position. Counters run over the whole walk, across invocations.
 */
export interface WalkProgress extends PagePosition {
  examined: number;
  /** Newest LastChanged seen, or the starting cursor. */
  newest: string;
  /** Claims this invocation made, to be delivered whether or not the walk finishes. */
  held: HeldClaim[];
  /** Transitions seen that neither this run nor another one's claim has taken on. */
  unsettled: number;
}

/**
 * One pass over the endpoints of a GSM changed since the cursor (4.3 with modifiedSince and only
 * the two groups needed), claiming each transition of an endpoint's infected state. Goes on
 * from `progress.continuation`; answers true when it reached the last page, false when the
 * budget stopped it at a page boundary.
 */
export async function walkChanges(
  deps: { client: SkywatchClient; state: StateStore },
  gsm: string,
  since: string | undefined,
  lease: Lease,
  options: {
    pageSize: number;
    alertOnClean: boolean;
    /** Groups another reader of the same entries needs (the health pass). */
    extraGroups?: AgentStatusGroup[];
    /** Sees every entry first; a failure fails the walk like a failed page. */
    onEntry?: (entry: AgentStatus) => Promise<void>;
  },
  progress: WalkProgress,
  budget: WalkBudget,
): Promise<boolean> {
  const returnedInfo = [
    ...new Set<AgentStatusGroup>(['BasicInfo', 'ExtendedInfo', ...(options.extraGroups ?? [])]),
  ];
  const open = (continuation: string | null) =>
    deps.client.gsmAgentStatus(gsm, {
      returnedInfo,
      batchSize: options.pageSize,
      prefetch: true,
      ...(since ? { modifiedSince: since } : {}),
      ...(continuation ? { continuation } : {}),
    });
  return walkPages(open, progress, budget, async (entries) => {
    for (const entry of entries) await examine(entry);
  });

  async function examine(entry: AgentStatus): Promise<void> {
    progress.examined++;
    // Health kinds read the fields they need themselves, so an entry an infection alert cannot
    // use still reaches them.
    await options.onEntry?.(entry);
    // Without what an alert needs the entry is skipped; the client counts it (rule `needed`).
    const needed = deps.client.needs(entry, AlertableEndpoint, 'AgentStatus');
    if (!needed) return;
    // Normalised instants (UTC, milliseconds), so text order is time order.
    if (needed.LastChanged > progress.newest) progress.newest = needed.LastChanged;
    const reading = readInfection(entry);
    // On the first pass no endpoint has a record yet, so clean ones need no state call at all.
    if (!reading.infected && !since) return;
    const current = await deps.state.get(endpointKey(gsm, needed.MachineID), EndpointRecord);
    const offer = await claimTransition(deps.state, gsm, lease, current, {
      record: { infected: reading.infected, threat: reading.threat, changedAt: needed.LastChanged },
      alert: reading.infected ? 'infection' : options.alertOnClean ? 'infection-cleaned' : null,
      endpoint: endpointFacts(entry, needed, reading),
    });
    if (offer.kind === 'claimed') progress.held.push(offer.held);
    if (offer.kind === 'unsettled') progress.unsettled++;
  }
}
