import { z } from 'zod';

/**
 * Each destination's documented format, written from its own documentation (not from our
 * code), so the tests catch a body the destination would refuse or render badly.
 */

/** Slack incoming webhook with Block Kit (api.slack.com/messaging/webhooks, block reference). */
const SlackText = z.object({ type: z.enum(['plain_text', 'mrkdwn']), text: z.string().min(1) });
export const SlackMessage = z.object({
  text: z.string().min(1),
  blocks: z
    .array(
      z.discriminatedUnion('type', [
        z.object({
          type: z.literal('header'),
          text: SlackText.extend({
            type: z.literal('plain_text'),
            text: z.string().min(1).max(150),
          }),
        }),
        z.object({
          type: z.literal('section'),
          text: z.optional(SlackText.extend({ text: z.string().min(1).max(3000) })),
          fields: z.optional(
            z.array(SlackText.extend({ text: z.string().min(1).max(2000) })).max(10),
          ),
        }),
        z.object({ type: z.literal('context'), elements: z.array(SlackText).min(1).max(10) }),
      ]),
    )
    .max(50),
});

/** Teams workflow webhook: a message with Adaptive Card attachments (adaptivecards.io). */
export const TeamsMessage = z.object({
  type: z.literal('message'),
  attachments: z
    .array(
      z.object({
        contentType: z.literal('application/vnd.microsoft.card.adaptive'),
        contentUrl: z.null().optional(),
        content: z.object({
          $schema: z.optional(z.string()),
          type: z.literal('AdaptiveCard'),
          version: z.string().regex(/^1\.\d$/),
          body: z
            .array(
              z.union([
                z.object({ type: z.literal('TextBlock'), text: z.string().min(1) }).passthrough(),
                z.object({
                  type: z.literal('FactSet'),
                  facts: z.array(z.object({ title: z.string(), value: z.string() })).min(1),
                }),
              ]),
            )
            .min(1),
        }),
      }),
    )
    .length(1),
});

/** PagerDuty Events API v2 (developer.pagerduty.com, "Send an Alert Event"). */
export const PagerDutyEvent = z.discriminatedUnion('event_action', [
  z.object({
    routing_key: z.string().length(32),
    event_action: z.literal('trigger'),
    dedup_key: z.string().min(1).max(255),
    payload: z.object({
      summary: z.string().min(1).max(1024),
      source: z.string().min(1),
      severity: z.enum(['critical', 'error', 'warning', 'info']),
      timestamp: z.optional(z.iso.datetime({ offset: true })),
      component: z.optional(z.string()),
      group: z.optional(z.string()),
      class: z.optional(z.string()),
      custom_details: z.optional(z.record(z.string(), z.unknown())),
    }),
    links: z.optional(z.array(z.object({ href: z.url(), text: z.optional(z.string()) }))),
  }),
  z.object({
    routing_key: z.string().length(32),
    event_action: z.enum(['acknowledge', 'resolve']),
    dedup_key: z.string().min(1).max(255),
  }),
]);

/** Standard Webhooks headers (standardwebhooks.com): id, Unix seconds, `v1,<base64>`. */
export const StandardWebhookHeaders = z.object({
  'webhook-id': z.string().min(1),
  'webhook-timestamp': z.string().regex(/^\d{10}$/),
  'webhook-signature': z.string().regex(/^v1,[A-Za-z0-9+/]+=*( v1,[A-Za-z0-9+/]+=*)*$/),
});

/** AWS Chatbot custom notification (docs.aws.amazon.com/chatbot, "Custom notifications"). */
export const ChatbotCustomNotification = z.object({
  version: z.literal('1.0'),
  source: z.literal('custom'),
  id: z.optional(z.string()),
  content: z.object({
    textType: z.optional(z.literal('client-markdown')),
    title: z.optional(z.string()),
    description: z.string().min(1),
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
