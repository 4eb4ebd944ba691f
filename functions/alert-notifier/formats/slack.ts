import type { HealthAlert } from '../../../lib/alerts/index.js';
import { namedFacts } from './facts.js';

/**
 * Text from the service as Slack shows it literally: in mrkdwn, `&`, `<` and `>` are control
 * characters, so a site named `<!channel> Smith & Sons` would ping a channel or break a link
 * (api.slack.com/reference/surfaces/formatting#escaping).
 */
export function slackEscape(text: string, max = Number.POSITIVE_INFINITY): string {
  const escaped = text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  // Cut to Slack's limit, never inside an entity: `&am` would show as it is.
  return escaped.length <= max ? escaped : escaped.slice(0, max).replace(/&[a-z]{0,3}$/, '');
}

/** Slack incoming webhook: Block Kit blocks plus `text`, the notification's fallback. */
export function slackMessage(alert: HealthAlert) {
  const resolved = alert.action === 'resolve';
  const title = `${resolved ? ':white_check_mark: Resolved' : ':rotating_light:'} ${alert.title}`;
  return {
    text: slackEscape(`${resolved ? 'Resolved: ' : ''}${alert.title}`),
    blocks: [
      // Header text is plain text of at most 150 characters.
      { type: 'header', text: { type: 'plain_text', text: title.slice(0, 150), emoji: true } },
      { type: 'section', text: { type: 'mrkdwn', text: slackEscape(alert.summary, 3000) } },
      {
        type: 'section',
        // At most 10 fields of at most 2000 characters each.
        fields: namedFacts(alert)
          .slice(0, 10)
          .map(([name, value]) => ({
            type: 'mrkdwn',
            text: slackEscape(`*${name}*\n${value}`, 2000),
          })),
      },
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: slackEscape(
              `${alert.severity} · ${alert.action} · ${alert.occurredAt} · id \`${alert.id}\``,
            ),
          },
        ],
      },
    ],
  };
}
