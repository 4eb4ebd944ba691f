import type { Received } from '../../support/receivers.js';

/**
 * The alert id and action a destination's body carries, read as that destination shows it,
 * with what else it shows of the event: when it happened (all but a PagerDuty resolve) and the
 * event id (a webhook's only: its `webhook-id`).
 */
export function deliveredEvent(
  destination: 'slack' | 'teams' | 'pagerduty' | 'webhook',
  r: Received,
): { id: string; action: 'trigger' | 'resolve'; occurredAt?: string; eventId?: string } {
  const b = JSON.parse(r.body);
  if (destination === 'pagerduty')
    return { id: b.dedup_key, action: b.event_action, occurredAt: b.payload?.timestamp };
  if (destination === 'webhook')
    return {
      id: b.id,
      action: b.action,
      occurredAt: b.occurredAt,
      eventId: String(r.headers['webhook-id']),
    };
  if (destination === 'slack') {
    const context: string = b.blocks.at(-1).elements[0].text;
    return {
      id: /id `([^`]+)`/.exec(context)?.[1] ?? '',
      action: context.includes(' · resolve · ') ? 'resolve' : 'trigger',
      occurredAt: context.split(' · ')[2],
    };
  }
  const body = b.attachments[0].content.body;
  const context = /^Alert id (\S+) · (\S+)$/.exec(body.at(-1).text);
  return {
    id: context?.[1] ?? '',
    action: String(body[0].text).startsWith('Resolved: ') ? 'resolve' : 'trigger',
    occurredAt: context?.[2],
  };
}
