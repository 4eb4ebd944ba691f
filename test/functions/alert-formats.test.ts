import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { consoleLinks } from '../../functions/alert-notifier/destinations.js';
import { pagerDutyEvent } from '../../functions/alert-notifier/formats/pagerduty.js';
import { slackEscape, slackMessage } from '../../functions/alert-notifier/formats/slack.js';
import { TEAMS_MAX_BYTES, teamsMessage } from '../../functions/alert-notifier/formats/teams.js';
import { digestMessage } from '../../functions/infection-alerter/health/digest.js';
import { type HealthAlert, toChatbotMessage } from '../../lib/alerts/index.js';
import { PagerDutyEvent, SlackMessage, TeamsMessage } from '../support/destination-formats.js';

const ALERT: HealthAlert = {
  schema: 'skywatch.alert/v2',
  id: 'infected/5C0E9A1B2C3D4E5F',
  eventId: 'infected/5C0E9A1B2C3D4E5F#1',
  action: 'trigger',
  kind: 'infected',
  severity: 'critical',
  gsm: 'W9YT-G4ZI-JT0Z-ERPO-3ZZI',
  consoleName: 'Globex MSP',
  site: '2PKA-1EGZ-UKZK-OT8S-NH03',
  siteName: 'Acme Dental',
  hostName: 'LAPTOP-E3076B',
  machineId: '5C0E9A1B2C3D4E5F',
  title: 'Infected: LAPTOP-E3076B at Acme Dental',
  summary: 'Infected: LAPTOP-E3076B at site Acme Dental.',
  occurredAt: '2026-06-15T12:04:00Z',
  openedAt: '2026-06-15T12:04:00Z',
  facts: { threat: 'Trojan|Win32|Docs' },
};
const ROUTING_KEY = 'R'.repeat(32);

describe('PagerDuty event: source', () => {
  it.each([
    [{ hostName: '' }, 'Acme Dental'],
    [{ hostName: '   ', siteName: null }, '2PKA-1EGZ-UKZK-OT8S-NH03'],
    [{ hostName: null, siteName: ' ', site: '' }, 'Globex MSP'],
    [{ hostName: null, siteName: null, site: '', consoleName: null }, 'W9YT-G4ZI-JT0Z-ERPO-3ZZI'],
  ])('is never blank (%o → %s), which PagerDuty refuses with a 400', (blanks, source) => {
    const event = PagerDutyEvent.parse(pagerDutyEvent({ ...ALERT, ...blanks }, ROUTING_KEY));
    expect(event.event_action === 'trigger' && event.payload.source).toBe(source);
  });
});

describe('PagerDuty event: links', () => {
  it('links the incident to the console when the operator gave its address', () => {
    const links = consoleLinks(
      ALERT,
      'https://console.example.com/gsm/{gsm}/sites/{site}?m={machineId}',
    );
    const event = PagerDutyEvent.parse(pagerDutyEvent(ALERT, ROUTING_KEY, links));
    expect(event).toMatchObject({
      links: [
        {
          href: `https://console.example.com/gsm/${ALERT.gsm}/sites/${ALERT.site}?m=${ALERT.machineId}`,
          text: 'Open LAPTOP-E3076B in the console',
        },
      ],
    });
    // Nothing to link to without an address: no empty list for PagerDuty to show.
    expect(pagerDutyEvent(ALERT, ROUTING_KEY, consoleLinks(ALERT, undefined))).not.toHaveProperty(
      'links',
    );
  });

  it('fills the address with URL-encoded values only', () => {
    const [link] = consoleLinks({ ...ALERT, site: 'a/b?c' }, 'https://c.example/{site}');
    expect(link?.href).toBe('https://c.example/a%2Fb%3Fc');
  });
});

describe('Slack message: escaping', () => {
  it('shows a hostile site name literally, pinging nobody', () => {
    const name = '<!channel> Smith & Sons <https://evil.example|click>';
    const message = SlackMessage.parse(
      slackMessage({ ...ALERT, siteName: name, summary: `Infected at ${name}` }),
    );
    const mrkdwn = JSON.stringify(message);
    expect(mrkdwn).not.toContain('<!channel>');
    expect(mrkdwn).not.toContain('<https://');
    expect(mrkdwn).toContain('&lt;!channel&gt; Smith &amp; Sons');
  });

  it('escapes only &, < and >, and never cuts inside an entity', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', '&', '<', '>', ' ') }),
        fc.nat(40),
        (text, max) => {
          const escaped = slackEscape(text, max);
          expect(escaped.length).toBeLessThanOrEqual(max);
          expect(escaped.replaceAll(/&(amp|lt|gt);/g, '')).not.toMatch(/[<>&]/);
          expect(slackEscape(text).startsWith(escaped)).toBe(true);
        },
      ),
    );
  });
});

describe('Teams message: size', () => {
  it(`stays under Teams' ${TEAMS_MAX_BYTES}-byte limit, keeping the title, customer and id`, () => {
    const huge = { ...ALERT, summary: 'ü'.repeat(40_000), facts: { threat: 'x'.repeat(40_000) } };
    for (const facts of [
      huge.facts,
      Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`f${i}`, 'y'.repeat(900)])),
    ]) {
      const message = TeamsMessage.parse(teamsMessage({ ...huge, facts }));
      const text = JSON.stringify(message);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(TEAMS_MAX_BYTES);
      expect(text).toContain(ALERT.title);
      expect(text).toContain('Acme Dental');
      expect(text).toContain(`Alert id ${ALERT.id}`);
    }
  });

  it('leaves an ordinary alert whole', () => {
    const card = JSON.stringify(teamsMessage(ALERT));
    expect(card).toContain(ALERT.summary);
    expect(card).toContain('Trojan|Win32|Docs');
  });
});

describe('Chatbot threads', () => {
  it('threads an alert per incarnation: a re-infection starts its own thread', () => {
    const first = toChatbotMessage(ALERT).metadata?.threadId;
    const resolve = toChatbotMessage({ ...ALERT, action: 'resolve', eventId: `${ALERT.id}#2` });
    const again = toChatbotMessage({ ...ALERT, openedAt: '2026-09-01T08:00:00Z' });
    expect(resolve.metadata?.threadId).toBe(first);
    expect(again.metadata?.threadId).not.toBe(first);
  });

  it('threads the daily digest per day', () => {
    const digest = (at: string) =>
      digestMessage({
        gsm: 'GSM-1',
        consoleName: null,
        at,
        open: 0,
        openByKind: {},
        openedToday: {},
        resolvedToday: {},
        openBySite: [],
      } as unknown as Parameters<typeof digestMessage>[0]).metadata.threadId;
    expect(digest('2026-06-15T07:00:00Z')).not.toBe(digest('2026-06-16T07:00:00Z'));
  });
});
