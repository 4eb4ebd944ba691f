import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deliveries } from '../../functions/alert-notifier/destinations.js';
import { pagerDutyEvent } from '../../functions/alert-notifier/formats/pagerduty.js';
import { slackMessage } from '../../functions/alert-notifier/formats/slack.js';
import { teamsMessage } from '../../functions/alert-notifier/formats/teams.js';
import { testAlert } from '../../functions/alert-notifier/test-alert.js';
import {
  alertId,
  HEALTH_KINDS,
  HealthAlert,
  HealthKind,
  parseChatbotMessage,
  toChatbotMessage,
} from '../../lib/alerts/index.js';
import {
  ChatbotCustomNotification,
  PagerDutyEvent,
  SlackMessage,
  TeamsMessage,
} from '../support/destination-formats.js';

const NOW = new Date('2026-06-15T12:00:00.000Z');
const [TRIGGER, RESOLVE] = testAlert(NOW, { origin: 'unit test' });
const ROUTING_KEY = 'R'.repeat(32);
const SECRET = {
  webhook: {
    url: 'https://psa.example.com/hook',
    secret: `whsec_${Buffer.from('a signing secret of 32 bytes....').toString('base64')}`,
  },
};
/** A real alert, to show that none of the marking leaks onto one. */
const REAL: HealthAlert = {
  schema: 'skywatch.alert/v2',
  id: 'offline/5C0E9A1B2C3D4E5F',
  eventId: 'offline/5C0E9A1B2C3D4E5F#1',
  action: 'trigger',
  kind: 'offline',
  severity: 'info',
  gsm: 'W9YT-G4ZI-JT0Z-ERPO-3ZZI',
  consoleName: 'Globex MSP',
  site: '2PKA-1EGZ-UKZK-OT8S-NH03',
  siteName: 'Acme Dental',
  hostName: 'LAPTOP-E3076B',
  machineId: '5C0E9A1B2C3D4E5F',
  title: 'Not seen: LAPTOP-E3076B at Acme Dental',
  summary: 'Not seen for 9 days.',
  occurredAt: '2026-06-15T12:00:00Z',
  openedAt: '2026-06-15T12:00:00Z',
  facts: { daysSinceSeen: 9 },
};

const teamsTitle = (alert: HealthAlert) => {
  const [first] = TeamsMessage.parse(teamsMessage(alert)).attachments[0]?.content.body ?? [];
  return first && 'text' in first ? first.text : '';
};
const webhookBody = (alert: HealthAlert) =>
  JSON.parse(deliveries(alert, SECRET, NOW)[0]?.body ?? '{}') as Record<string, unknown>;

describe('Function: testAlert', () => {
  it('is a trigger then its resolve: one id, events #1 and #2, valid alerts', () => {
    expect(HealthAlert.parse(TRIGGER)).toEqual(TRIGGER);
    expect(HealthAlert.parse(RESOLVE)).toEqual(RESOLVE);
    expect([TRIGGER.action, RESOLVE.action]).toEqual(['trigger', 'resolve']);
    expect(TRIGGER.id).toBe('test/2026-06-15T12:00:00.000Z');
    expect([TRIGGER.eventId, RESOLVE.eventId]).toEqual([`${TRIGGER.id}#1`, `${TRIGGER.id}#2`]);
    expect(TRIGGER).toMatchObject({ kind: 'attention-required', severity: 'info', test: true });
    expect(TRIGGER.title).toMatch(/^\[TEST\] .*test alert.*nothing is wrong/i);
    expect(TRIGGER.summary).toMatch(/^\[TEST\] .*test alert.*Nothing is wrong/);
  });

  it('has an id that no real alert can have', () => {
    expect(HEALTH_KINDS).not.toContain('test');
    fc.assert(
      fc.property(fc.constantFrom(...HEALTH_KINDS), fc.string(), fc.boolean(), (kind, s, site) => {
        const id = alertId(HealthKind.parse(kind), site ? { site: s } : { machineId: s });
        expect(id.startsWith('test/')).toBe(false);
      }),
    );
  });
});

describe('Formats: a test alert carries the TEST marking', () => {
  it('Slack: the text, header and summary start with [TEST], a test fact shows', () => {
    const trigger = SlackMessage.parse(slackMessage(TRIGGER));
    expect(trigger.text).toMatch(/^\[TEST\] /);
    expect(JSON.stringify(trigger.blocks[0])).toContain(':rotating_light: [TEST] ');
    expect(JSON.stringify(trigger.blocks[1])).toContain('"text":"[TEST] ');
    expect(JSON.stringify(trigger.blocks[2])).toContain('*test*\\ntrue');
    expect(SlackMessage.parse(slackMessage(RESOLVE)).text).toMatch(/^Resolved: \[TEST\] /);
    expect(JSON.stringify(slackMessage(REAL))).not.toContain('TEST');
  });

  it('Teams: the title starts with [TEST], a test fact shows', () => {
    expect(teamsTitle(TRIGGER)).toMatch(/^\[TEST\] /);
    expect(teamsTitle(RESOLVE)).toMatch(/^Resolved: \[TEST\] /);
    expect(JSON.stringify(teamsMessage(TRIGGER))).toContain('{"title":"test","value":"true"}');
    expect(JSON.stringify(teamsMessage(REAL))).not.toContain('TEST');
  });

  it('PagerDuty: summary prefix [TEST], custom_details.test, info, closed by its own key', () => {
    const trigger = PagerDutyEvent.parse(pagerDutyEvent(TRIGGER, ROUTING_KEY));
    if (trigger.event_action !== 'trigger') throw new Error('not a trigger');
    expect(trigger.payload.summary).toMatch(/^\[TEST\] /);
    expect(trigger.payload.custom_details?.test).toBe(true);
    expect(trigger.payload.severity).toBe('info');
    expect(PagerDutyEvent.parse(pagerDutyEvent(RESOLVE, ROUTING_KEY))).toEqual({
      routing_key: ROUTING_KEY,
      event_action: 'resolve',
      dedup_key: TRIGGER.id,
    });
    const real = pagerDutyEvent(REAL, ROUTING_KEY);
    expect('payload' in real && real.payload.custom_details).not.toHaveProperty('test');
  });

  it('webhook: the JSON carries test: true, for the trigger and the resolve', () => {
    expect(webhookBody(TRIGGER)).toMatchObject({ test: true, action: 'trigger' });
    expect(webhookBody(RESOLVE)).toMatchObject({ test: true, action: 'resolve' });
    expect(webhookBody(REAL)).not.toHaveProperty('test');
  });

  it('Chatbot: the title after its icon starts with [TEST], and test: true survives SNS', () => {
    const message = ChatbotCustomNotification.parse(toChatbotMessage(TRIGGER));
    expect(message.content.title).toMatch(/^:rotating_light: \[TEST\] /);
    expect(message.content.description).toMatch(/^\[TEST\] /);
    expect(toChatbotMessage(RESOLVE).content.title).toMatch(
      /^:white_check_mark: Resolved: \[TEST\] /,
    );
    expect(parseChatbotMessage(JSON.stringify(message)).test).toBe(true);
    expect(parseChatbotMessage(JSON.stringify(toChatbotMessage(REAL)))).not.toHaveProperty('test');
  });
});
