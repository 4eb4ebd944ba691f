import type { Received } from '../../support/receivers.js';

/** The alert id and action a destination's body carries, read as that destination shows it. */
export function deliveredEvent(
  destination: 'slack' | 'teams' | 'pagerduty' | 'webhook',
  r: Received,
): { id: string; action: 'trigger' | 'resolve' } {
  const b = JSON.parse(r.body);
  if (destination === 'pagerduty') return { id: b.dedup_key, action: b.event_action };
  if (destination === 'webhook') return { id: b.id, action: b.action };
  if (destination === 'slack') {
    const context: string = b.blocks.at(-1).elements[0].text;
    return {
      id: /id `([^`]+)`/.exec(context)?.[1] ?? '',
      action: context.includes(' · resolve · ') ? 'resolve' : 'trigger',
    };
  }
  const body = b.attachments[0].content.body;
  return {
    id: /^Alert id (\S+) /.exec(body.at(-1).text)?.[1] ?? '',
    action: String(body[0].text).startsWith('Resolved: ') ? 'resolve' : 'trigger',
  };
}
