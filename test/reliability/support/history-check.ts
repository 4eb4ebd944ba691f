import type { StoredRow } from '../../support/alert-history.js';
import type { Received } from '../../support/receivers.js';
import { deliveredEvent } from './health-deliveries.js';
import type { Destination } from './receiver-timeline.js';

/** Who wrote a row: the alerter records transitions, the notifier a destination's answers. */
const ALERTER_EVENTS = new Set(['trigger', 'resolve', 'grouped', 'muted']);

/** One event as a receiver took it (answered 2xx, or held past our timeout: a hang). */
interface Taken {
  destination: Destination;
  eventId: string;
  action: 'trigger' | 'resolve';
  /** Whether the receiver answered 2xx at least once: only that can make a `delivered` row. */
  answered: boolean;
}

/** What the webhook's body says of an event: the whole alert, the truth for its times. */
interface EventFacts {
  action: 'trigger' | 'resolve';
  openedAt: string;
  occurredAt: string;
}

/**
 * Each event the receivers took, by destination and event id. Only the webhook names the
 * event (`webhook-id`, Standard Webhooks); Slack, Teams and a PagerDuty trigger show the alert
 * id, the action and when it happened, which the webhook's copy of the same event ties to its
 * id. A PagerDuty resolve shows only the alert: it is the event after that alert's last
 * trigger PagerDuty took (an alert's transitions alternate, `#n` trigger then `#n+1` resolve).
 */
export function takenEvents(requests: Record<Destination, Received[]>) {
  const taken = new Map<string, Taken>();
  const facts = new Map<string, EventFacts>();
  const byShown = new Map<string, string>();
  const unidentified: string[] = [];
  const took = (r: Received) => r.status === -1 || (r.status >= 200 && r.status < 300);
  for (const r of requests.webhook.filter(took)) {
    const b = JSON.parse(r.body) as EventFacts & { id: string; eventId: string };
    facts.set(b.eventId, { action: b.action, openedAt: b.openedAt, occurredAt: b.occurredAt });
    const shown = `${b.id} ${b.action} ${b.occurredAt}`;
    // Two events that look alike in chat could not be told apart there.
    if ((byShown.get(shown) ?? b.eventId) !== b.eventId) unidentified.push(`ambiguous: ${shown}`);
    byShown.set(shown, b.eventId);
  }
  for (const destination of Object.keys(requests) as Destination[]) {
    const lastTrigger = new Map<string, string>();
    for (const r of requests[destination].filter(took)) {
      const shown = deliveredEvent(destination, r);
      let eventId = shown.eventId ?? byShown.get(`${shown.id} ${shown.action} ${shown.occurredAt}`);
      if (destination === 'pagerduty' && shown.action === 'resolve') {
        const trigger = /^(.*)#(\d+)$/.exec(lastTrigger.get(shown.id) ?? '');
        eventId = trigger ? `${trigger[1]}#${Number(trigger[2]) + 1}` : undefined;
      }
      if (!eventId) {
        unidentified.push(`${destination} ${shown.id} ${shown.action} ${shown.occurredAt}`);
        continue;
      }
      if (shown.action === 'trigger') lastTrigger.set(shown.id, eventId);
      const key = `${destination} ${eventId}`;
      const before = taken.get(key);
      const answered = r.status !== -1 || before?.answered === true;
      taken.set(key, { destination, eventId, action: shown.action, answered });
    }
  }
  return { taken, facts, unidentified };
}

/** Figures of the history, for the soak's summary line. */
export interface HistoryFigures {
  objects: number;
  rows: number;
  alerterRows: Record<string, number>;
  delivered: number;
  failed: number;
  refused: number;
  /** Event and destination pairs whose first answer was a failure, then delivered. */
  failedThenDelivered: number;
  /** Pairs refused (PagerDuty's 401), then delivered after the dead letters' redrive. */
  refusedThenDelivered: number;
}

/**
 * Judges the alert history against what the receivers took; answers each disagreement as a
 * line. The receivers are the truth. Per destination and event: a `delivered` row for every
 * event it took, none for one it never answered 2xx, never two; its rows end in `delivered`
 * or `refused` and nothing follows a `delivered` (a `failed` may precede it: a hang, then the
 * retry). Per event: one alerter row at most, whichever run drained it, however often a run
 * was retried or overlapped, because a row is a transition and a transition happens once (a
 * second `trigger` row for one event id would count one alert twice in every query of
 * docs/operations.md, "Alert history"); an event some receiver took has exactly one, and it
 * is its `trigger` or `resolve`; an event recorded sent reached every destination (the
 * default route: all four); a notifier row is of an event recorded sent. A resolve's
 * `resolveSeconds` is its `openedAt` to its `occurredAt` as the webhook received them.
 */
export function judgeHistory(
  rows: readonly StoredRow[],
  requests: Record<Destination, Received[]>,
): { problems: string[]; figures: Omit<HistoryFigures, 'objects'> } {
  const { taken, facts, unidentified } = takenEvents(requests);
  const problems = unidentified.map((u) => `received, no event id: ${u}`);
  const destinations = Object.keys(requests) as Destination[];
  const alerter = groupBy(
    rows.filter((r) => ALERTER_EVENTS.has(r.event)),
    (r) => r.eventId,
  );
  const deliveries = groupBy(
    rows.filter((r) => !ALERTER_EVENTS.has(r.event)),
    (r) => `${r.destination} ${r.eventId}`,
  );
  for (const [eventId, of] of alerter)
    if (of.length > 1)
      problems.push(`${eventId}: ${of.length} alerter rows (${of.map((r) => r.event)})`);
  const sent = new Set(
    rows.filter((r) => r.event === 'trigger' || r.event === 'resolve').map((r) => r.eventId),
  );
  for (const t of taken.values()) {
    const rowsOf = deliveries.get(`${t.destination} ${t.eventId}`) ?? [];
    if (!rowsOf.some((r) => r.event === 'delivered'))
      problems.push(`${t.destination} ${t.eventId}: received, no delivered row`);
    const recorded = alerter.get(t.eventId) ?? [];
    if (recorded.length === 0 || recorded.some((r) => r.event !== t.action))
      problems.push(
        `${t.eventId}: received as ${t.action}, alerter rows [${recorded.map((r) => r.event)}]`,
      );
  }
  for (const eventId of sent)
    for (const d of destinations)
      if (!taken.has(`${d} ${eventId}`))
        problems.push(`${d} ${eventId}: recorded sent, never received`);
  const figures = { failedThenDelivered: 0, refusedThenDelivered: 0 };
  for (const [pair, of] of deliveries) {
    const events = of.sort((a, b) => a.at.localeCompare(b.at)).map((r) => r.event);
    const delivered = events.indexOf('delivered');
    if (delivered >= 0 && !taken.get(pair)?.answered)
      problems.push(`${pair}: delivered row, never answered 2xx`);
    if (delivered >= 0 && delivered !== events.length - 1)
      problems.push(`${pair}: rows after delivered: ${events}`);
    if (!['delivered', 'refused'].includes(events.at(-1) ?? ''))
      problems.push(`${pair}: ends ${events.at(-1)}: ${events}`);
    if (!sent.has(of[0]?.eventId ?? ''))
      problems.push(`${pair}: delivery rows of an event never sent`);
    if (delivered > 0 && events[0] === 'failed') figures.failedThenDelivered++;
    if (delivered > 0 && events.includes('refused')) figures.refusedThenDelivered++;
  }
  for (const r of rows) problems.push(...resolveProblems(r, facts.get(r.eventId)));
  const count = (event: string) => rows.filter((r) => r.event === event).length;
  const alerterRows = Object.fromEntries(
    [...ALERTER_EVENTS].map((e) => [e, count(e)] as const).filter(([, n]) => n > 0),
  );
  return {
    // One line per disagreement, however many receivers show it.
    problems: [...new Set(problems)],
    figures: {
      rows: rows.length,
      alerterRows,
      delivered: count('delivered'),
      failed: count('failed'),
      refused: count('refused'),
      ...figures,
    },
  };
}

/** A resolve's time to resolve, against the event as the webhook received it. */
function resolveProblems(r: StoredRow, got: EventFacts | undefined): string[] {
  const where = `${r.event} ${r.destination ?? 'alerter'} ${r.eventId}`;
  if (r.action === 'trigger')
    return r.resolveSeconds === null ? [] : [`${where}: resolveSeconds on a trigger`];
  if (r.resolveSeconds === null || r.resolveSeconds < 0)
    return [`${where}: resolveSeconds ${r.resolveSeconds}`];
  if (!got) return [];
  const seconds = Math.round((Date.parse(got.occurredAt) - Date.parse(got.openedAt)) / 1000);
  return got.openedAt === r.openedAt && seconds === r.resolveSeconds
    ? []
    : [`${where}: ${r.openedAt} +${r.resolveSeconds}s, received ${got.openedAt}→${got.occurredAt}`];
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = out.get(k);
    if (group) group.push(item);
    else out.set(k, [item]);
  }
  return out;
}
