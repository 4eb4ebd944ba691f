import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  configuredDestinations,
  deliveryTo,
  NotifierSecret,
  protectSecrets,
} from '../../functions/alert-notifier/destinations.js';
import type { HealthAlert, RouteRef } from '../../lib/alerts/index.js';
import { redact } from '../../lib/errors/index.js';
import * as z from '../../lib/zod.js';

const NOW = new Date('2026-06-15T12:00:00.000Z');
const whsec = () => `whsec_${randomBytes(24).toString('base64')}`;
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
  summary: 'Trojan found.',
  occurredAt: '2026-06-15T12:00:00Z',
  openedAt: '2026-06-15T12:00:00Z',
  facts: { threat: 'Trojan' },
};
const problems = (value: unknown) =>
  z.safeParse(NotifierSecret, value).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

describe('Schema: NotifierSecret (named destinations)', () => {
  it('names the legacy keys as their type, then the named ones, in the secret’s order', () => {
    const secret = z.parse(NotifierSecret, {
      pagerduty: { routingKey: 'R'.repeat(32) },
      slack: { url: 'https://hooks.slack.com/services/T/B/x' },
      destinations: {
        'acme-slack': { type: 'slack', url: 'https://hooks.slack.com/services/T/B/acme' },
        psa: { type: 'webhook', url: 'https://psa.example.com/hook', secret: whsec() },
        'acme-pager': { type: 'pagerduty', routingKey: 'A'.repeat(32) },
      },
    });
    const configured = configuredDestinations(secret);
    expect([...configured.keys()]).toEqual([
      'slack',
      'pagerduty',
      'acme-slack',
      'psa',
      'acme-pager',
    ]);
    expect([...configured.values()].map((d) => d.type)).toEqual([
      'slack',
      'pagerduty',
      'slack',
      'webhook',
      'pagerduty',
    ]);
    // The default endpoint, for a named PagerDuty as for the legacy one.
    expect(configured.get('acme-pager')?.url).toBe('https://events.pagerduty.com/v2/enqueue');
  });

  it('refuses a destination defined twice, a name routing could never use, an unknown type', () => {
    expect(
      problems({
        slack: { url: 'https://a.example/x' },
        destinations: {
          slack: { type: 'slack', url: 'https://b.example/x' },
          Acme_Slack: { type: 'slack', url: 'https://c.example/x' },
          ops: { type: 'opsgenie', url: 'https://d.example/x' },
          psa: { type: 'webhook', url: 'https://e.example/x' },
        },
      }),
    ).toEqual([
      expect.stringMatching(/^destinations\.Acme_Slack: /),
      expect.stringMatching(/^destinations\.ops\.type: Invalid discriminator/),
      expect.stringMatching(/^destinations\.psa\.secret: /),
      'destinations.slack: is also the top-level key slack: define the destination slack once',
    ]);
  });

  it('registers every URL, routing key and signing secret of every destination for redaction', () => {
    const secret = z.parse(NotifierSecret, {
      teams: { url: `https://teams.example/${randomBytes(8).toString('hex')}` },
      destinations: {
        'acme-slack': {
          type: 'slack',
          url: `https://hooks.example/${randomBytes(8).toString('hex')}`,
        },
        pager: { type: 'pagerduty', routingKey: randomBytes(16).toString('hex') },
        psa: {
          type: 'webhook',
          url: `https://psa.example/${randomBytes(8).toString('hex')}`,
          secret: whsec(),
        },
      },
    });
    protectSecrets(secret);
    const named = secret.destinations ?? {};
    const values = [
      secret.teams?.url,
      named['acme-slack']?.url,
      named.pager?.type === 'pagerduty' ? named.pager.routingKey : '',
      named.psa?.url,
      named.psa?.type === 'webhook' ? named.psa.secret : '',
    ];
    for (const value of values) {
      expect(value).toBeTruthy();
      expect(redact(`the receiver said: ${value}`)).not.toContain(value);
    }
  });
});

describe('Function: deliveryTo', () => {
  const secret = whsec();
  const psa = { type: 'webhook' as const, url: 'https://psa.example.com/hook', secret };
  const fieldsArb = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 20 }),
    fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null)),
  );

  it('puts the route beside the alert in the webhook body, signed with the destination’s secret', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 30 }), fieldsArb, (name, fields) => {
        const route: RouteRef = { name, fields };
        // Now, not a fixed time: the library refuses a timestamp five minutes off.
        const d = deliveryTo('psa', psa, ALERT, { route, now: new Date() });
        const verified = new Webhook(secret).verify(d.body, d.headers);
        expect(verified).toEqual({ ...ALERT, route: { name, fields } });
        expect(d).toMatchObject({ destination: 'psa', type: 'webhook', url: psa.url });
      }),
      { numRuns: 50 },
    );
  });

  it('sends a message from before routing (no route) as the alert alone', () => {
    const d = deliveryTo('webhook', psa, ALERT, { now: NOW });
    expect(JSON.parse(d.body)).toEqual(ALERT);
  });

  it('leaves the route out of Slack, Teams and PagerDuty, whose readers are not its operator', () => {
    const route = { name: 'acme', fields: { psaCompanyId: 42 } };
    for (const config of [
      { type: 'slack' as const, url: 'https://hooks.example/s' },
      { type: 'teams' as const, url: 'https://teams.example/t' },
      {
        type: 'pagerduty' as const,
        url: 'https://events.pagerduty.com/v2/enqueue',
        routingKey: 'R'.repeat(32),
      },
    ]) {
      const routed = deliveryTo('x', config, ALERT, { route, now: NOW });
      expect(routed.body).toBe(deliveryTo('x', config, ALERT, { now: NOW }).body);
      expect(routed.body).not.toContain('psaCompanyId');
      expect(routed.type).toBe(config.type);
    }
  });
});
