import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { StateStore } from '../../lib/aws/index.js';
import { type Product, type ReceivedHealthAlert, startProduct } from '../support/product.js';

/**
 * The infection alerter as a technician sees it: one alert per problem. An infected endpoint
 * (which the service also flags as asking for attention) gives one `infected` trigger, its
 * cleaning one resolve, and nothing else reaches the topic.
 */
let product: Product;
let state: StateStore;
let pool: string[];
const siteOf = new Map<string, string>();

type RunResult = {
  outcomes: { modifiedSince: string | null; health: { transitions: number } }[];
};
const run = () => product.run<RunResult>('infection-alerter');
const events = (alerts: ReceivedHealthAlert[]) => alerts.map((a) => `${a.action} ${a.eventId}`);
const take = (n: number) => pool.splice(0, n);
const cursor = async () =>
  (
    await state.get(
      `infection-alerter/${product.gsm}/cursor.json`,
      z.object({ modifiedSince: z.string() }),
    )
  )?.value.modifiedSince;

beforeAll(async () => {
  product = await startProduct();
  state = new StateStore(product.aws.clients.s3, product.res.bucket);
  await product.run('token-refresher');
  await run();
  // What the data starts with (deactivated agents, licences) is alerted by the first run;
  // the endpoints the tests turn are others.
  const busy = new Set((await product.healthAlerts()).map((a) => a.machineId));
  await product.digests();
  const sites = product.emulator.info().gsms[0]?.sites ?? [];
  for (const s of sites)
    for (const id of product.emulator.machineIds(s.key, 30)) siteOf.set(id, s.key);
  pool = [...siteOf.keys()].filter((id) => !busy.has(id));
});
afterAll(async () => product?.close());

describe('Function: infection-alerter', () => {
  it('alerts each new infection once, as one infected trigger with host, site, threat and times', async () => {
    const [a, b] = take(2);
    product.emulator.endpointAction(a ?? '', 'infect', 'Ransom|Win64|LockBit');
    product.emulator.endpointAction(b ?? '', 'infect');
    await run();
    await run();
    const alerts = await product.healthAlerts();
    expect(events(alerts).sort()).toEqual(
      [`trigger infected/${a}#1`, `trigger infected/${b}#1`].sort(),
    );
    // The service sets AttentionRequired on an infected agent: no second alert for it, and no
    // v1 infection alert.
    expect(await product.alerts()).toEqual([]);
    const first = alerts.find((x) => x.machineId === a);
    expect(first).toMatchObject({
      kind: 'infected',
      severity: 'critical',
      gsm: product.gsm,
      site: siteOf.get(a ?? ''),
      machineId: a,
      hostName: expect.any(String),
      facts: { threat: 'Ransom|Win64|LockBit', activeThreats: expect.any(Number) },
      occurredAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/),
      attributes: {
        kind: { Value: 'infected' },
        severity: { Value: 'critical' },
        action: { Value: 'trigger' },
      },
    });
  });

  it('alerts once when runs overlap', async () => {
    const [c] = take(1);
    product.emulator.endpointAction(c ?? '', 'infect');
    const runs = await Promise.all([run(), run(), run()]);
    // One run owns the transition (its outbox entry); the others find it there…
    expect(runs.reduce((n, r) => n + (r.outcomes[0]?.health.transitions ?? 0), 0)).toBe(1);
    // …and the topic's subscribers (e-mail, Chatbot) receive it once.
    expect(events(await product.healthAlerts())).toEqual([`trigger infected/${c}#1`]);
  });

  it('misses nothing that changes between runs: the cleaning resolves, a re-infection triggers again', async () => {
    const [d] = take(1);
    product.emulator.endpointAction(d ?? '', 'infect', 'Trojan|Win32|First');
    await run();
    product.emulator.advanceClock(60);
    product.emulator.endpointAction(d ?? '', 'clean');
    await run();
    product.emulator.advanceClock(60);
    product.emulator.endpointAction(d ?? '', 'infect', 'Worm|Win32|Again');
    await run();
    const alerts = await product.healthAlerts();
    expect(events(alerts)).toEqual([
      `trigger infected/${d}#1`,
      `resolve infected/${d}#2`,
      `trigger infected/${d}#3`,
    ]);
    expect(alerts.at(-1)?.facts.threat).toBe('Worm|Win32|Again');
  });

  it('ignores the state an older version left: claims, endpoint records, a walk counting unsettled changes', async () => {
    const [claimed, recorded, infected] = take(3);
    const old = `state/infection-alerter/${product.gsm}`;
    const put = (key: string, body: unknown) =>
      product.aws.clients.s3.send(
        new PutObjectCommand({ Bucket: product.res.bucket, Key: key, Body: JSON.stringify(body) }),
      );
    const endpoint = {
      machineId: claimed,
      hostName: 'OLD-HOST',
      site: 'OLD-SITE',
      ipAddress: '',
      os: '',
      threat: ['Old|Threat'],
      activeThreats: 1,
      lastChanged: '2026-01-01T00:00:00.000Z',
      lastSeen: '2026-01-01T00:00:00.000Z',
    };
    const record = { infected: true, threat: ['Old|Threat'], changedAt: endpoint.lastChanged };
    // A claim whose lease ran out long ago: the old alerter would have sent it.
    const claim = {
      owner: 'old-run',
      claimedAt: endpoint.lastChanged,
      leaseUntil: endpoint.lastChanged,
      record,
      alert: 'infection',
      endpoint,
    };
    await put(`${old}/claims/${claimed}.json`, claim);
    await put(`${old}/endpoints/${recorded}.json`, record);
    const before = (await cursor()) ?? '';
    // A walk paused by the old version, with a change it left unsettled: that one kept the
    // cursor where it was; the walk now goes on and completes as any other.
    await put(`${old}/walk.json`, {
      kind: 'changes',
      continuation: null,
      since: before,
      newest: before,
      startedAt: new Date(Date.now() - 60_000).toISOString(),
      pages: 0,
      examined: 0,
      unsettled: 1,
      ticks: 1,
      restarts: 0,
    });
    // Well past the cursor's step back (the overlap and the walk's own time, a minute here):
    // the completed walk must move it, whatever this machine's speed.
    product.emulator.advanceClock(600);
    await product.run('token-refresher');
    product.emulator.endpointAction(infected ?? '', 'infect');
    const result = await run();

    expect(events(await product.healthAlerts())).toEqual([`trigger infected/${infected}#1`]);
    expect(await product.alerts()).toEqual([]);
    const after = result.outcomes[0]?.modifiedSince ?? '';
    expect(after > before).toBe(true);
    expect(await cursor()).toBe(after);
    const left = (await product.objects(`${old}/`)).map((o) => o.key).sort();
    expect(left).toEqual(
      [
        `${old}/claims/${claimed}.json`,
        `${old}/cursor.json`,
        `${old}/endpoints/${recorded}.json`,
      ].sort(),
    );
  });
});
