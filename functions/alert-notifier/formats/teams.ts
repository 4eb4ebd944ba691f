import type { HealthAlert } from '../../../lib/alerts/index.js';
import { namedFacts } from './facts.js';

/**
 * The largest message a Teams workflow webhook takes (28 KB, learn.microsoft.com "Create
 * incoming webhooks with Workflows for Microsoft Teams", limits); a larger one is refused and
 * no retry mends it.
 */
export const TEAMS_MAX_BYTES = 28 * 1024;
/** Facts are a threat name, a date, a count: longer ones are cut first. */
const FACT_CHARS = 1000;

function card(alert: HealthAlert, summary: string, facts: [string, string][]) {
  const resolved = alert.action === 'resolve';
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            {
              type: 'TextBlock',
              text: `${resolved ? 'Resolved: ' : ''}${alert.title}`.slice(0, FACT_CHARS),
              weight: 'Bolder',
              size: 'Medium',
              color: resolved ? 'Good' : 'Attention',
              wrap: true,
            },
            { type: 'TextBlock', text: summary, wrap: true },
            { type: 'FactSet', facts: facts.map(([title, value]) => ({ title, value })) },
            {
              type: 'TextBlock',
              text: `Alert id ${alert.id} · ${alert.occurredAt}`,
              isSubtle: true,
              size: 'Small',
              wrap: true,
            },
          ],
        },
      },
    ],
  };
}

/**
 * Microsoft Teams workflow ("When a Teams webhook request is received"): a message whose
 * attachment is an Adaptive Card, kept under Teams' size limit by cutting the summary, then the
 * facts at the end, never the title, the customer or the alert id.
 */
export function teamsMessage(alert: HealthAlert) {
  let summary = alert.summary;
  let facts = namedFacts(alert).map(([t, v]): [string, string] => [t, v.slice(0, FACT_CHARS)]);
  for (;;) {
    const message = card(alert, summary, facts);
    const over = Buffer.byteLength(JSON.stringify(message)) - TEAMS_MAX_BYTES;
    if (over <= 0) return message;
    if (summary.length > 1)
      summary = `${summary.slice(0, Math.max(0, summary.length - over - 1))}…`;
    else if (facts.length > 3) {
      // Enough of the last facts for the bytes over, at their average size, and a mark.
      const average = Buffer.byteLength(JSON.stringify(facts)) / facts.length;
      const keep = Math.max(2, facts.length - 1 - Math.ceil(over / average));
      facts = [...facts.slice(0, keep), ['…', 'facts left out: too long']];
    } else return card(alert, summary, facts.slice(0, 2));
  }
}
