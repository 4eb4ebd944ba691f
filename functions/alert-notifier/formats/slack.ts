import type { HealthAlert } from '../../../lib/alerts/index.js';
import { namedFacts } from './facts.js';

/** Slack incoming webhook: Block Kit blocks plus `text`, the notification's fallback. */
export function slackMessage(alert: HealthAlert) {
  const resolved = alert.action === 'resolve';
  const title = `${resolved ? ':white_check_mark: Resolved' : ':rotating_light:'} ${alert.title}`;
  return {
    text: `${resolved ? 'Resolved: ' : ''}${alert.title}`,
    blocks: [
      // Header text is plain text of at most 150 characters.
      { type: 'header', text: { type: 'plain_text', text: title.slice(0, 150), emoji: true } },
      { type: 'section', text: { type: 'mrkdwn', text: alert.summary.slice(0, 3000) } },
      {
        type: 'section',
        // At most 10 fields of at most 2000 characters each.
        fields: namedFacts(alert)
          .slice(0, 10)
          .map(([name, value]) => ({ type: 'mrkdwn', text: `*${name}*\n${value}`.slice(0, 2000) })),
      },
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: `${alert.severity} · ${alert.action} · ${alert.occurredAt} · id \`${alert.id}\``,
          },
        ],
      },
    ],
  };
}
