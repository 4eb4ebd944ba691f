import type { Receiver } from './receivers.js';

type Body = Record<string, unknown>;
const parse = (text: string): Body => JSON.parse(text) as Body;

/** One line per request a destination accepted: what it shows, with the alert id. */
export function deliveryLines(name: string, receiver: Receiver): string[] {
  return receiver.accepted().map((r) => {
    const b = parse(r.body);
    if (name === 'slack') return `${b.text}`;
    if (name === 'teams') {
      const card = (b.attachments as { content: { body: { text?: string }[] } }[])[0]?.content;
      return `${card?.body[0]?.text}  (${card?.body.at(-1)?.text})`;
    }
    if (name === 'pagerduty') {
      const summary = (b.payload as { summary?: string } | undefined)?.summary ?? '';
      return `${b.event_action} dedup_key=${b.dedup_key} ${summary}`;
    }
    return `${b.action} ${r.headers['webhook-id']} ${b.title} [${b.consoleName} / ${b.siteName}]`;
  });
}
