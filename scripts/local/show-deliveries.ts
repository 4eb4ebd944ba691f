import type { Receiver } from './receivers.js';

type Body = Record<string, unknown>;
const parse = (text: string): Body => JSON.parse(text) as Body;

/** The route a webhook body carries (docs/operations.md, "Routing"), as ` route=acme {…}`. */
function routeOf(b: Body): string {
  const route = b.route as { name?: string; fields?: Record<string, unknown> } | undefined;
  if (!route) return '';
  const fields =
    Object.keys(route.fields ?? {}).length > 0 ? ` ${JSON.stringify(route.fields)}` : '';
  return `  route=${route.name}${fields}`;
}

/**
 * One line per request a destination accepted: what it shows, with the alert id. `type` is
 * the destination's type when its name is not (a named destination such as `acme-slack`).
 */
export function deliveryLines(name: string, receiver: Receiver, type = name): string[] {
  return receiver.accepted().map((r) => {
    const b = parse(r.body);
    if (type === 'slack') return `${b.text}`;
    if (type === 'teams') {
      const card = (b.attachments as { content: { body: { text?: string }[] } }[])[0]?.content;
      return `${card?.body[0]?.text}  (${card?.body.at(-1)?.text})`;
    }
    if (type === 'pagerduty') {
      const summary = (b.payload as { summary?: string } | undefined)?.summary ?? '';
      return `${b.event_action} dedup_key=${b.dedup_key} ${summary}`;
    }
    return `${b.action} ${r.headers['webhook-id']} ${b.title} [${b.consoleName} / ${b.siteName}]${routeOf(b)}`;
  });
}
