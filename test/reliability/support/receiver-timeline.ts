import type { Received } from '../../support/receivers.js';
import { deliveredEvent } from './health-deliveries.js';

export type Destination = 'slack' | 'teams' | 'pagerduty' | 'webhook';

/** What one receiver shows of one alert, as its user sees it. */
export interface Timeline {
  /** The events received, in order, each once. */
  actions: ('trigger' | 'resolve')[];
  /**
   * Copies of an event the receiver had taken without answering (a hang past our timeout):
   * a second post in Slack or Teams, absorbed by PagerDuty's dedup_key and a webhook's id.
   */
  afterHang: number;
  /** Copies of an event the receiver had answered: always a fault of ours. */
  duplicates: number;
}

/**
 * What each receiver shows per alert id, judged as the receiver itself would. A request it
 * took without answering (a hang past our timeout) is shown: a chat post appears though we saw
 * a timeout. PagerDuty and a Standard Webhooks receiver de-duplicate (dedup_key and action,
 * webhook-id: their documented contracts), so a second copy shows nothing there; Slack and
 * Teams incoming webhooks have no idempotency key, so a copy is a second post.
 */
export function timelines(destination: Destination, requests: Received[]): Map<string, Timeline> {
  const out = new Map<string, Timeline>();
  const seen = new Map<string, 'answered' | 'hung'>();
  for (const r of requests) {
    const taken = r.status === -1 || (r.status >= 200 && r.status < 300);
    if (!taken) continue;
    const { id, action } = deliveredEvent(destination, r);
    const t = out.get(id) ?? { actions: [], afterHang: 0, duplicates: 0 };
    out.set(id, t);
    const event =
      destination === 'webhook'
        ? String(r.headers['webhook-id'])
        : `${id}#${eventIndex(t, action)}`;
    const before = seen.get(event);
    seen.set(event, r.status === -1 ? 'hung' : 'answered');
    if (before === undefined) t.actions.push(action);
    // A copy: shown again in chat, absorbed by PagerDuty and a webhook receiver; counted apart
    // from the history either way.
    else if (before === 'hung') t.afterHang++;
    else t.duplicates++;
  }
  return out;
}

/**
 * Which event of the alert an action is, for receivers that carry no event id: a repeat of the
 * last action shown is the same event again; a change of action is the next one.
 */
function eventIndex(t: Timeline, action: string): number {
  const last = t.actions.at(-1);
  return last === action ? t.actions.length : t.actions.length + 1;
}

/** Whether a timeline is a true history: trigger first, alternating, ending as expected. */
export function faithful(actions: string[], endsOpen: boolean): boolean {
  if (actions.length === 0) return false;
  const alternates = actions.every((a, i) => a === (i % 2 === 0 ? 'trigger' : 'resolve'));
  return alternates && (actions.at(-1) === 'trigger') === endsOpen;
}
