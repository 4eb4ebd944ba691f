import * as z from '../zod.js';
import { HealthAlert } from './model.js';

/**
 * AWS Chatbot (Amazon Q Developer in chat applications) custom notification: the SNS message
 * itself, so a Chatbot channel subscribed to the topic renders it. The alert travels whole in
 * `metadata.additionalContext.skywatchAlert` (additionalContext values are strings), which is
 * what the notifier reads back.
 */
export const ChatbotMessage = z.object({
  version: z.literal('1.0'),
  source: z.literal('custom'),
  id: z.optional(z.string()),
  content: z.object({
    textType: z.optional(z.literal('client-markdown')),
    title: z.optional(z.string()),
    description: z.string(),
    nextSteps: z.optional(z.array(z.string())),
    keywords: z.optional(z.array(z.string())),
  }),
  metadata: z.optional(
    z.object({
      threadId: z.optional(z.string()),
      summary: z.optional(z.string()),
      eventType: z.optional(z.string()),
      relatedResources: z.optional(z.array(z.string())),
      additionalContext: z.optional(z.record(z.string(), z.string())),
    }),
  ),
});
export type ChatbotMessage = z.infer<typeof ChatbotMessage>;

const ICON = { trigger: ':rotating_light:', resolve: ':white_check_mark:' } as const;

/** Lines a person reads: who, where, and the facts, the same in every destination. */
export function factLines(alert: HealthAlert): string[] {
  const lines = [
    `Console: ${alert.consoleName ?? alert.gsm}`,
    `Site: ${alert.siteName ?? alert.site} (${alert.site})`,
  ];
  if (alert.hostName || alert.machineId)
    lines.push(`Endpoint: ${alert.hostName ?? '?'} (${alert.machineId ?? '?'})`);
  for (const [name, value] of Object.entries(alert.facts)) lines.push(`${name}: ${String(value)}`);
  lines.push(`Alert id: ${alert.id}`);
  return lines;
}

export function toChatbotMessage(alert: HealthAlert): ChatbotMessage {
  return {
    version: '1.0',
    source: 'custom',
    id: alert.eventId,
    content: {
      textType: 'client-markdown',
      title: `${ICON[alert.action]} ${alert.action === 'trigger' ? '' : 'Resolved: '}${alert.title}`,
      description: `${alert.summary}\n${factLines(alert).join('\n')}`,
      keywords: [alert.kind, alert.severity, alert.action],
    },
    metadata: {
      // A thread per incarnation: a re-infection months later starts its own, not a reply.
      threadId: `${alert.id}@${alert.openedAt}`,
      summary: alert.title,
      eventType: `skywatch.${alert.kind}.${alert.action}`,
      relatedResources: [alert.machineId ?? alert.site],
      additionalContext: {
        alertId: alert.id,
        action: alert.action,
        severity: alert.severity,
        skywatchAlert: JSON.stringify(alert),
      },
    },
  };
}

/** Reads an alert back from an SNS message; a typed error names what is wrong. */
export function parseChatbotMessage(text: string): HealthAlert {
  const message = z.parse(ChatbotMessage, JSON.parse(text));
  const inner = message.metadata?.additionalContext?.skywatchAlert;
  if (inner === undefined) throw new TypeError('not a Skywatch alert: no skywatchAlert context');
  return z.parse(HealthAlert, JSON.parse(inner));
}
