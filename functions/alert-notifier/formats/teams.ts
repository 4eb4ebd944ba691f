import type { HealthAlert } from '../../../lib/alerts/index.js';
import { namedFacts } from './facts.js';

/**
 * Microsoft Teams workflow ("When a Teams webhook request is received"): a message whose
 * attachment is an Adaptive Card.
 */
export function teamsMessage(alert: HealthAlert) {
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
              text: `${resolved ? 'Resolved: ' : ''}${alert.title}`,
              weight: 'Bolder',
              size: 'Medium',
              color: resolved ? 'Good' : 'Attention',
              wrap: true,
            },
            { type: 'TextBlock', text: alert.summary, wrap: true },
            {
              type: 'FactSet',
              facts: namedFacts(alert).map(([title, value]) => ({ title, value })),
            },
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
