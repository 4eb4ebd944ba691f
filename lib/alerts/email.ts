import { factLines } from './chatbot.js';
import type { HealthAlert } from './model.js';

/**
 * An alert event as an e-mail subscriber reads it: plain text, what happened first, then the
 * facts. SNS sends this to `email` subscriptions in place of the JSON that chat receives.
 *
 * @example
 * emailText(alert) // 'Infected: PC-7 at Smith & Sons\n\nInfected: PC-7 (A1B2) at site …'
 */
export function emailText(alert: HealthAlert): string {
  const state =
    alert.action === 'trigger'
      ? `Opened ${alert.openedAt}, severity ${alert.severity}.`
      : `Resolved ${alert.occurredAt}; it was open since ${alert.openedAt}.`;
  const heading = `${alert.action === 'resolve' ? 'Resolved: ' : ''}${alert.title}`;
  return [heading, '', alert.summary, state, '', ...factLines(alert), ''].join('\n');
}
