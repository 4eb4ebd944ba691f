import { describe, expect, it } from 'vitest';
import { type DestinationConfig, deliveryTo } from '../../functions/alert-notifier/destinations.js';
import { type AlertEventKind, alertEventRow, type HealthAlert } from '../../lib/alerts/index.js';
import type { StoredRow } from '../support/alert-history.js';
import type { Received } from '../support/receivers.js';
import { judgeHistory } from './support/history-check.js';
import type { Destination } from './support/receiver-timeline.js';

const TRIGGER: HealthAlert = {
  schema: 'skywatch.alert/v2',
  id: 'offline/5C0E9A1B2C3D4E5F',
  eventId: 'offline/5C0E9A1B2C3D4E5F#1',
  action: 'trigger',
  kind: 'offline',
  severity: 'high',
  gsm: 'W9YT-G4ZI-JT0Z-ERPO-3ZZI',
  consoleName: 'Globex MSP',
  site: '2PKA-1EGZ-UKZK-OT8S-NH03',
  siteName: 'Acme Dental',
  hostName: 'LAPTOP-E3076B',
  machineId: '5C0E9A1B2C3D4E5F',
  title: 'Offline: LAPTOP-E3076B at Acme Dental',
  summary: 'Offline: LAPTOP-E3076B at site Acme Dental.',
  occurredAt: '2026-06-15T12:04:00Z',
  openedAt: '2026-06-15T12:04:00Z',
  facts: {},
};
const RESOLVE: HealthAlert = {
  ...TRIGGER,
  eventId: `${TRIGGER.id}#2`,
  action: 'resolve',
  occurredAt: '2026-06-15T12:05:30Z',
};
const OTHER: HealthAlert = {
  ...TRIGGER,
  id: 'infected/5C0E9A1B2C3D4E5F',
  eventId: 'infected/5C0E9A1B2C3D4E5F#1',
  kind: 'infected',
  occurredAt: '2026-06-15T12:04:30Z',
  openedAt: '2026-06-15T12:04:30Z',
};
const EVENTS = [TRIGGER, OTHER, RESOLVE];
const DESTINATIONS: Destination[] = ['slack', 'teams', 'pagerduty', 'webhook'];
const CONFIG: Record<Destination, DestinationConfig> = {
  slack: { type: 'slack', url: 'http://127.0.0.1/hook' },
  teams: { type: 'teams', url: 'http://127.0.0.1/hook' },
  pagerduty: { type: 'pagerduty', routingKey: 'R'.repeat(32), url: 'http://127.0.0.1/hook' },
  webhook: {
    type: 'webhook',
    url: 'http://127.0.0.1/hook',
    secret: `whsec_${Buffer.alloc(24, 7).toString('base64')}`,
  },
};

const received = (d: Destination, alert: HealthAlert, status = 200): Received => {
  const { headers, body } = deliveryTo(d, CONFIG[d], alert, { now: new Date() });
  return { path: '/hook', headers, body, status };
};
let clock = Date.parse('2026-06-15T12:10:00Z');
/** A row written a second after the one before, so each pair's rows are in order. */
const row = (alert: HealthAlert, event: AlertEventKind, destination?: Destination): StoredRow => {
  clock += 1000;
  return {
    ...alertEventRow(alert, { at: clock, event, route: 'default', destination }),
    key: `reports/alert-events/${destination ? 'notifier' : 'alerter'}.ndjson.gz`,
  };
};

/**
 * Three events at four receivers: Slack's first copy of the trigger hung past the notifier's
 * timeout (a `failed` row, then the retry's `delivered`).
 */
function world() {
  const requests = Object.fromEntries(
    DESTINATIONS.map((d) => [d, EVENTS.map((e) => received(d, e))]),
  ) as Record<Destination, Received[]>;
  requests.slack.unshift(received('slack', TRIGGER, -1));
  const rows: StoredRow[] = EVENTS.flatMap((e) => [
    row(e, e.action),
    ...(e === TRIGGER ? [row(e, 'failed', 'slack')] : []),
    ...DESTINATIONS.map((d) => row(e, 'delivered', d)),
  ]);
  return { requests, rows };
}

const at = (rows: StoredRow[], eventId: string, event: string, destination?: string) =>
  rows.findIndex(
    (r) => r.eventId === eventId && r.event === event && r.destination === (destination ?? null),
  );

describe('Function: judgeHistory', () => {
  it('finds nothing wrong with a history that matches its receivers', () => {
    const { requests, rows } = world();

    const { problems, figures } = judgeHistory(rows, requests);

    expect(problems).toEqual([]);
    expect(figures).toMatchObject({ delivered: 12, failed: 1, failedThenDelivered: 1 });
  });

  it.each<[string, (w: ReturnType<typeof world>) => void, RegExp]>([
    [
      'a delivered row lost',
      ({ rows }) => rows.splice(at(rows, OTHER.eventId, 'delivered', 'teams'), 1),
      /^teams infected\/\S+#1: received, no delivered row$/,
    ],
    [
      'a trigger recorded again by a redelivered run',
      ({ rows }) => rows.push({ ...row(OTHER, 'trigger'), key: 'another run' }),
      /^infected\/\S+#1: 2 alerter rows \(trigger,trigger\)$/,
    ],
    [
      'a delivery the receiver never answered 2xx',
      ({ requests }) => {
        const [r] = requests.pagerduty.splice(1, 1);
        if (r) requests.pagerduty.splice(1, 0, { ...r, status: 503 });
      },
      /^pagerduty infected\/\S+#1: delivered row, never answered 2xx$/,
    ],
    [
      'a failure after the delivery',
      ({ rows }) => rows.push(row(OTHER, 'failed', 'webhook')),
      /^webhook infected\/\S+#1: ends failed: delivered,failed$/,
    ],
    [
      'a hang never retried',
      ({ requests, rows }) => {
        requests.slack.splice(1, 1);
        rows.splice(at(rows, TRIGGER.eventId, 'delivered', 'slack'), 1);
      },
      /^slack offline\/\S+#1: ends failed: failed$/,
    ],
    [
      'a received trigger recorded muted',
      ({ rows }) => {
        const r = rows[at(rows, TRIGGER.eventId, 'trigger')];
        if (r) r.event = 'muted';
      },
      /^offline\/\S+#1: received as trigger, alerter rows \[muted\]$/,
    ],
    [
      'an event recorded sent that one receiver never got',
      ({ requests }) => requests.teams.splice(2, 1),
      /^teams offline\/\S+#2: recorded sent, never received$/,
    ],
    [
      'a resolve timed wrong',
      ({ rows }) => {
        const r = rows[at(rows, RESOLVE.eventId, 'resolve')];
        if (r) r.resolveSeconds = 91;
      },
      /^resolve alerter offline\/\S+#2: .*\+91s, received .*12:04:00Z→.*12:05:30Z$/,
    ],
  ])('reports %s', (_name, spoil, problem) => {
    const w = world();
    spoil(w);

    const { problems } = judgeHistory(w.rows, w.requests);

    expect(problems).toContainEqual(expect.stringMatching(problem));
  });
});
