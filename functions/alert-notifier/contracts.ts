import type { DestinationType } from '../../lib/alerts/index.js';

/** What a receiver's answer means for the delivery. */
export type Answer = 'delivered' | 'retry' | 'refused';

/**
 * Chat and paging services: 2xx took it (Teams Workflows and PagerDuty answer 202); 408, 429
 * and every 5xx may succeed later (PagerDuty Events v2: "retry on 429 and 5xx"; Slack: 429
 * with Retry-After, 5xx); any other 4xx is the request itself refused (Slack's 400
 * invalid_payload, 403 action_prohibited, 404 channel_not_found, 410 channel_is_archived;
 * PagerDuty's 400 invalid event), which no retry mends. None of them redirects, so a 3xx is a
 * failure, never followed.
 */
function chat(status: number): Answer {
  if (status >= 200 && status < 300) return 'delivered';
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) return 'refused';
  return 'retry';
}

/**
 * Standard Webhooks (standardwebhooks.com, "Retry schedule"): any answer but 2xx is a failure
 * to retry, 3xx included and never followed; 410 Gone means the endpoint is disabled.
 */
function standardWebhook(status: number): Answer {
  if (status >= 200 && status < 300) return 'delivered';
  return status === 410 ? 'refused' : 'retry';
}

/**
 * Each type of receiver's delivery contract, from its own documentation (docs/operations.md):
 * every destination of a type, whatever its name, is judged by it.
 */
export const CONTRACTS: Record<DestinationType, (status: number) => Answer> = {
  slack: chat,
  teams: chat,
  pagerduty: chat,
  webhook: standardWebhook,
};
