import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESTINATION_NAMES, deliveryGroup, type HealthAlert } from '../../lib/alerts/index.js';
import { DeliveryQueue } from '../../lib/aws/index.js';
import {
  ChatbotCustomNotification,
  PagerDutyEvent,
  SlackMessage,
  StandardWebhookHeaders,
  TeamsMessage,
} from '../support/destination-formats.js';
import { type Destinations, startDestinations } from '../support/notifier-receivers.js';
import { type Product, startProduct } from '../support/product.js';

/** Health alerts from the alerter through the FIFO queue → notifier to four real local receivers. */
let product: Product;
let to: Destinations;
let target: string;

const json = (body: string) => JSON.parse(body) as Record<string, unknown>;
const run = () => product.run('infection-alerter');

beforeAll(async () => {
  product = await startProduct(
    {},
    { NOTIFY_BASE_DELAY_MS: '5', NOTIFY_MAX_DELAY_MS: '50', NOTIFY_ATTEMPT_TIMEOUT_MS: '2000' },
  );
  to = await startDestinations(product);
  await product.run('token-refresher');
  await run();
  await to.notify();
  await product.healthAlerts();
  const site = product.emulator.info().gsms[0]?.sites[1]?.key ?? '';
  target = product.emulator.machineIds(site, 20)[12] ?? '';
  for (const r of [to.slack, to.teams, to.pagerduty, to.webhook]) r.requests.length = 0;
});
afterAll(async () => {
  await to?.close();
  await product?.close();
});

describe('Function: alert-notifier', () => {
  it('delivers a trigger to every destination in its documented format', async () => {
    product.emulator.endpointAction(target, 'uninstall');
    await run();
    await to.notify();
    const id = `uninstalled/${target}`;

    const slack = SlackMessage.parse(json(to.slack.accepted()[0]?.body ?? '{}'));
    expect(slack.text).toMatch(/^Agent uninstalled: /);
    expect(JSON.stringify(slack.blocks)).toContain(target);

    const teams = TeamsMessage.parse(json(to.teams.accepted()[0]?.body ?? '{}'));
    expect(JSON.stringify(teams)).toContain(id);

    const pd = PagerDutyEvent.parse(json(to.pagerduty.accepted()[0]?.body ?? '{}'));
    expect(pd).toMatchObject({
      routing_key: to.routingKey,
      event_action: 'trigger',
      dedup_key: id,
    });

    const hook = to.webhook.accepted()[0];
    const headers = StandardWebhookHeaders.parse(hook?.headers);
    expect(headers['webhook-id']).toBe(`${id}#1`);
    // The receiver's own check, with the library a PSA tool would use.
    const verified = new Webhook(to.webhookSecret).verify(hook?.body ?? '', headers) as HealthAlert;
    expect(verified).toMatchObject({ id, action: 'trigger', machineId: target });
    // A body changed in transit no longer verifies.
    expect(() => new Webhook(to.webhookSecret).verify(`${hook?.body} `, headers)).toThrow();

    // The SNS message itself is Chatbot's custom notification.
    const [sns] = (await product.healthAlerts()).filter((a) => a.id === id);
    // One thread per incarnation of the alert: the id and when this trigger opened it.
    expect(ChatbotCustomNotification.parse(sns?.chatbot).metadata?.threadId).toBe(
      `${id}@${sns?.openedAt}`,
    );
  });

  it('delivers the resolve with the same id, PagerDuty closing by dedup_key', async () => {
    product.emulator.advanceClock(60);
    product.emulator.endpointAction(target, 'reinstall');
    await run();
    await to.notify();
    const pd = to.pagerduty.accepted().map((r) => PagerDutyEvent.parse(json(r.body)));
    expect(pd.map((e) => `${e.event_action} ${e.dedup_key}`)).toEqual([
      `trigger uninstalled/${target}`,
      `resolve uninstalled/${target}`,
    ]);
    expect(to.webhook.accepted().map((r) => r.headers['webhook-id'])).toEqual([
      `uninstalled/${target}#1`,
      `uninstalled/${target}#2`,
    ]);
    expect(to.slack.accepted()).toHaveLength(2);
    expect(to.teams.accepted()).toHaveLength(2);
  });

  it('retries 5xx and 429 with back-off, and sends an event queued twice only once', async () => {
    const before = to.slack.requests.length;
    to.slack.answer = ({ index }) => [503, 429][index - before] ?? 200;
    const alert = { id: 'offline/DUP', title: 'Not seen: H at Site', facts: { daysSinceSeen: 9 } };
    await publish(alert);
    // SQS drops the copy within its deduplication window; after it, the sent markers do.
    await publish(alert);
    await publish(alert, 'after-the-window');
    await to.notify();
    expect(to.slack.requests.slice(before).map((r) => r.status)).toEqual([503, 429, 200]);
    for (const r of [to.teams, to.pagerduty, to.webhook])
      expect(r.accepted().filter((x) => x.body.includes('DUP'))).toHaveLength(1);
    to.slack.answer = () => 200;
    await product.healthAlerts();
  });

  it('does not retry a refusal (4xx): the event goes to the dead-letter queue at once', async () => {
    const before = to.teams.requests.length;
    to.teams.answer = () => 400;
    product.emulator.advanceClock(60);
    product.emulator.endpointAction(target, 'other-av-on', 'Contoso AV');
    await run();
    await to.notify();
    const tried = to.teams.requests.slice(before).filter((r) => r.body.includes(target));
    expect(tried.map((r) => r.status)).toEqual([400]);
    const dead = await to.deadLetters();
    expect(dead.map((d) => d.destination)).toEqual(['teams']);
    expect(dead[0]?.reason).toMatch(/HTTP 400/);
    // The other destinations still got it, once.
    expect(to.slack.accepted().filter((r) => r.body.includes('Contoso AV'))).toHaveLength(1);
    to.teams.answer = () => 202;
  });

  it('posts to every destination at once: a hung Slack delays no page', async () => {
    const before = to.slack.requests.length;
    to.slack.answer = ({ index }) => (index === before ? -1 : 200);
    let slackHungWhenPaged = false;
    to.pagerduty.answer = ({ body }) => {
      // One after another, Slack's timeout and retry would come before this page.
      if (body.includes('Hung Slack')) slackHungWhenPaged = to.slack.requests.length - before < 2;
      return 202;
    };
    await publish({ id: 'offline/HUNG', title: 'Hung Slack', summary: 'Hung Slack' });
    await to.notify();
    // PagerDuty was paged before Slack's first request timed out; Slack got it on a retry.
    expect(slackHungWhenPaged).toBe(true);
    expect(to.slack.requests.slice(before).map((r) => r.status)).toEqual([-1, 200]);
    to.slack.answer = () => 200;
    to.pagerduty.answer = () => 202;
  });

  it('never follows a redirect, and retries every webhook answer but 2xx and 410', async () => {
    const before = to.webhook.requests.length;
    to.webhook.answer = ({ index }) => [302, 400, 503][index - before] ?? 204;
    await publish({ id: 'offline/MOVED', title: 'Moved PSA', summary: 'Moved PSA' });
    await to.notify();
    const tried = to.webhook.requests.slice(before);
    expect(tried.map((r) => r.status)).toEqual([302, 400, 503, 204]);
    expect(tried.map((r) => r.path)).not.toContain('/hook/moved');
    expect((await to.deadLetters()).filter((d) => d.body.includes('MOVED'))).toEqual([]);
    to.webhook.answer = () => 204;
  });

  it("honours a Retry-After longer than it may wait: no early post, the queue's turn", async () => {
    const before = to.slack.requests.length;
    to.slack.answer = () => 429;
    to.slack.retryAfter = '120';
    await publish({ id: 'offline/SLOW', title: 'Slow down', summary: 'Slow down' });
    // One receive of the messages, as the queue gives them: one post, then back to the queue,
    // not visible again before the two minutes Slack asked for.
    const outcome = await to.notifyOnce();
    expect(to.slack.requests.slice(before).map((r) => r.status)).toEqual([429]);
    expect(outcome.failures).toBe(1);
    expect(to.source.retries.at(-1)).toBeGreaterThanOrEqual(120);
    to.slack.answer = () => 200;
    to.slack.retryAfter = '0';
    await to.notify();
    expect(to.slack.accepted().filter((r) => r.body.includes('Slow down'))).toHaveLength(1);
    for (const r of [to.teams, to.pagerduty, to.webhook])
      expect(r.accepted().filter((x) => x.body.includes('Slow down'))).toHaveLength(1);
  });

  it('re-sends what a destination refused when the dead letter is redriven after a fix', async () => {
    const before = to.teams.requests.length;
    to.teams.answer = () => 403;
    await publish({ id: 'offline/FIXED', title: 'Fixed Teams', summary: 'Fixed Teams' });
    await to.notify();
    expect(to.teams.requests.slice(before).map((r) => r.status)).toEqual([403]);
    to.teams.answer = () => 202;
    // The operator's redrive moves the dead letters back, their attributes with them.
    expect(await to.redriveDeadLetters()).toBeGreaterThanOrEqual(1);
    await to.notify();
    expect(to.teams.accepted().filter((r) => r.body.includes('Fixed Teams'))).toHaveLength(1);
    // The others had it already: the redrive sends them nothing.
    for (const r of [to.slack, to.pagerduty, to.webhook])
      expect(r.accepted().filter((x) => x.body.includes('Fixed Teams'))).toHaveLength(1);
  });

  it('holds a resolve behind its failing trigger, and only at that destination', async () => {
    const before = { pd: to.pagerduty.requests.length, slack: to.slack.requests.length };
    to.pagerduty.answer = ({ index }) => (index - before.pd < 4 ? 503 : 202);
    await publish({ id: 'offline/ORDER', title: 'In order', summary: 'In order' });
    await to.notifyDue();
    // Slack has the trigger at once; PagerDuty's failed and waits for its back-off.
    expect(to.slack.accepted().filter((r) => r.body.includes('In order'))).toHaveLength(1);
    await publish({
      id: 'offline/ORDER',
      eventId: 'offline/ORDER#2',
      action: 'resolve',
      title: 'In order',
      summary: 'In order',
    });
    await to.notifyDue();
    expect(to.slack.accepted().filter((r) => r.body.includes('In order'))).toHaveLength(2);
    expect(to.pagerduty.accepted().filter((r) => r.body.includes('ORDER'))).toEqual([]);
    await to.notify();
    const pd = to.pagerduty.requests
      .slice(before.pd)
      .map((r) => PagerDutyEvent.parse(json(r.body)));
    expect(pd.map((e) => `${e.event_action}`)).toEqual([
      'trigger',
      'trigger',
      'trigger',
      'trigger',
      'trigger',
      'resolve',
    ]);
    // Tried again on a schedule of seconds to minutes, not the queue's twelve.
    expect(Math.max(...to.source.retries.slice(-2))).toBeLessThanOrEqual(120);
    to.pagerduty.answer = () => 202;
  });

  it('answers a test event with what each destination said', async () => {
    const answer = (await product.run('alert-notifier', {
      skywatchTestAlert: true,
      destination: 'pagerduty',
    })) as { results: { destination: string; action: string; status?: number }[] };
    expect(answer.results.map((r) => `${r.destination} ${r.action} ${r.status}`)).toEqual([
      'pagerduty trigger 202',
      'pagerduty resolve 202',
    ]);
    const [trigger, resolve] = to.pagerduty
      .accepted()
      .slice(-2)
      .map((r) => PagerDutyEvent.parse(json(r.body)));
    expect(trigger?.event_action === 'trigger' && trigger.payload.summary).toMatch(/^\[TEST\]/);
    expect(resolve).toMatchObject({ event_action: 'resolve', dedup_key: trigger?.dedup_key });
  });

  it('gives one infected endpoint exactly one notification per channel', async () => {
    const site = product.emulator.info().gsms[0]?.sites[2]?.key ?? '';
    const infected = product.emulator.machineIds(site, 20)[14] ?? '';
    const receivers = [to.slack, to.teams, to.pagerduty, to.webhook];
    const before = receivers.map((r) => r.requests.length);
    await product.healthAlerts();
    // The agent also asks for attention, as the real service's do when infected: no second alert.
    product.emulator.endpointAction(infected, 'infect', 'Trojan|Win32|Single');
    await run();
    await to.notify();
    receivers.forEach((r, i) => {
      const got = r.requests.slice(before[i]).filter((x) => x.body.includes(infected));
      expect(got.map((x) => x.status >= 200 && x.status < 300)).toEqual([true]);
    });
    // The topic (e-mail, Chatbot): one message too.
    const sns = (await product.healthAlerts()).filter((a) => a.machineId === infected);
    expect(sns.map((a) => `${a.kind} ${a.action}`)).toEqual(['infected trigger']);
  });
});

/**
 * A health alert event queued as the alerter queues it: one message per destination. The same
 * fields make the same messages, so queueing twice is an alerter run that died after queueing
 * and before recording it; `copy` queues it again as SQS would after its deduplication window.
 */
async function publish(fields: Partial<HealthAlert> & { id: string }, copy = ''): Promise<void> {
  const at = '2026-06-15T12:00:00Z';
  const alert: HealthAlert = {
    schema: 'skywatch.alert/v2',
    eventId: `${fields.id}#1`,
    action: 'trigger',
    kind: 'offline',
    severity: 'medium',
    gsm: product.gsm,
    consoleName: 'Console',
    site: 'S',
    siteName: 'Site',
    hostName: 'H',
    machineId: fields.id.split('/').at(-1) ?? null,
    title: 'Not seen',
    summary: 'Not seen.',
    occurredAt: at,
    openedAt: at,
    facts: {},
    ...fields,
  };
  if (!copy) {
    await new DeliveryQueue(product.aws.clients.sqs, product.res.notifierQueueUrl).enqueue(alert);
    return;
  }
  for (const destination of DESTINATION_NAMES)
    await product.aws.clients.sqs.send(
      new SendMessageCommand({
        QueueUrl: product.res.notifierQueueUrl,
        MessageBody: JSON.stringify({ schema: 'skywatch.delivery/v1', destination, alert }),
        MessageGroupId: deliveryGroup(destination, alert.id),
        MessageDeduplicationId: `${copy}-${destination}`,
        MessageAttributes: { destination: { DataType: 'String', StringValue: destination } },
      }),
    );
}
