import { PublishCommand, type SNSClient } from '@aws-sdk/client-sns';
import {
  ChatbotMessage,
  emailText,
  type HealthAlert,
  type Routing,
  toChatbotMessage,
} from '../alerts/index.js';
import { StorageError } from './errors.js';

/** The kinds of `skywatch.alert/v1`; health alerts (v2) have their own (lib/alerts). */
export type AlertKind = 'blocked-url-spike';
export type AlertSeverity = 'critical' | 'high' | 'medium' | 'low' | 'info';

export interface Alert {
  kind: AlertKind;
  severity: AlertSeverity;
  gsm: string;
  /** Site keycode, when the alert is about one site. */
  site?: string;
  /** One line a person reads first (the e-mail subject). */
  subject: string;
  /** One paragraph of plain text. */
  summary: string;
  /** When it happened, ISO 8601. */
  occurredAt: string;
  details: Record<string, unknown>;
}

/** SNS subjects are ASCII, one line, at most 100 characters. */
export function snsSubject(text: string): string {
  const ascii = text.replace(/[^\x20-\x7e]/g, '?').trim();
  return ascii.length <= 100 ? ascii : `${ascii.slice(0, 97)}...`;
}

/**
 * One message, rendered per subscription protocol: e-mail subscribers get text a person reads;
 * every other subscriber (AWS Chatbot over HTTPS, SQS, e-mail-json) gets the JSON.
 */
function perProtocol(json: string, text: string) {
  return {
    MessageStructure: 'json',
    Message: JSON.stringify({ default: json, email: text }),
  } as const;
}

/** A message's text for e-mail: the subject, and a Chatbot message's description if it has one. */
function readableText(subject: string, message: unknown): string {
  const parsed = ChatbotMessage.safeParse(message);
  return parsed.success ? `${subject}\n\n${parsed.data.content.description}\n` : `${subject}\n`;
}

/**
 * Publishes alerts to SNS: a human subject, a JSON body (`schema: skywatch.alert/v1`), and
 * message attributes (gsm, site, kind, severity) that subscriptions can filter on.
 *
 * @example
 * await publisher.publish({ kind: 'blocked-url-spike', severity: 'high', gsm, site, subject, … });
 */
export class AlertPublisher {
  constructor(
    private readonly sns: SNSClient,
    private readonly topicArn: string,
  ) {}

  async publish(alert: Alert): Promise<string> {
    const attributes: Record<string, { DataType: 'String'; StringValue: string }> = {
      gsm: { DataType: 'String', StringValue: alert.gsm },
      kind: { DataType: 'String', StringValue: alert.kind },
      severity: { DataType: 'String', StringValue: alert.severity },
    };
    if (alert.site) attributes.site = { DataType: 'String', StringValue: alert.site };
    try {
      const out = await this.sns.send(
        new PublishCommand({
          TopicArn: this.topicArn,
          Subject: snsSubject(alert.subject),
          ...perProtocol(
            JSON.stringify({ schema: 'skywatch.alert/v1', ...alert }),
            `${alert.subject}\n\n${alert.summary}\n\nWhen: ${alert.occurredAt}\nSeverity: ${alert.severity}\nConsole: ${alert.gsm}\n${alert.site ? `Site: ${alert.site}\n` : ''}`,
          ),
          MessageAttributes: attributes,
        }),
      );
      return out.MessageId ?? '';
    } catch (error) {
      throw new StorageError(`Cannot publish a ${alert.kind} alert`, { cause: error });
    }
  }

  /**
   * Publishes one lifecycle event of a health alert: the message is AWS Chatbot's custom
   * notification (so a Chatbot channel renders it) carrying the alert, e-mail gets it as text
   * (./alerts/email.ts), and the attributes let subscriptions filter on kind, severity, gsm,
   * site and action, and on `route`, the routing document's route the event took (so an e-mail
   * list or a Chatbot channel of a customer's own gets that customer's alerts only).
   */
  async publishHealth(alert: HealthAlert, routing?: Routing): Promise<string> {
    const attribute = (value: string) => ({ DataType: 'String' as const, StringValue: value });
    try {
      const out = await this.sns.send(
        new PublishCommand({
          TopicArn: this.topicArn,
          Subject: snsSubject(`${alert.action === 'resolve' ? 'Resolved: ' : ''}${alert.title}`),
          ...perProtocol(JSON.stringify(toChatbotMessage(alert)), emailText(alert)),
          MessageAttributes: {
            schema: attribute(alert.schema),
            kind: attribute(alert.kind),
            severity: attribute(alert.severity),
            gsm: attribute(alert.gsm),
            site: attribute(alert.site),
            action: attribute(alert.action),
            ...(routing ? { route: attribute(routing.route) } : {}),
          },
        }),
      );
      return out.MessageId ?? '';
    } catch (error) {
      throw new StorageError(`Cannot publish a ${alert.kind} ${alert.action}`, { cause: error });
    }
  }

  /**
   * Publishes a message that is not an alert (the daily digest), as given, with string
   * attributes; `schema` among them keeps it from subscriptions that filter on alerts. E-mail
   * gets `text`, or the subject and the Chatbot description when the message is one.
   */
  async publishMessage(
    subject: string,
    message: unknown,
    attributes: Record<string, string>,
    text?: string,
  ): Promise<string> {
    const MessageAttributes = Object.fromEntries(
      Object.entries(attributes).map(([k, v]) => [k, { DataType: 'String', StringValue: v }]),
    );
    try {
      const out = await this.sns.send(
        new PublishCommand({
          TopicArn: this.topicArn,
          Subject: snsSubject(subject),
          ...perProtocol(JSON.stringify(message), text ?? readableText(subject, message)),
          MessageAttributes,
        }),
      );
      return out.MessageId ?? '';
    } catch (error) {
      throw new StorageError(`Cannot publish ${subject}`, { cause: error });
    }
  }
}
