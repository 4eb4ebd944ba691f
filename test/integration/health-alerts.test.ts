import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Product, type ReceivedHealthAlert, startProduct } from '../support/product.js';

/** Health alerts from the infection alerter's walk, end to end through SNS (Chatbot format). */
let product: Product;
let sites: { key: string; name: string }[];
let consoleName: string;

const run = () => product.run('infection-alerter');
const ids = (site: number, n: number) =>
  product.emulator.machineIds(sites[site]?.key ?? '', 40).slice(10, 10 + n);
const summary = (alerts: ReceivedHealthAlert[]) => alerts.map((a) => `${a.action} ${a.id}`).sort();

async function putRules(rules: unknown) {
  await product.aws.clients.s3.send(
    new PutObjectCommand({
      Bucket: product.res.bucket,
      Key: 'state/config/alert-rules.json',
      Body: JSON.stringify(rules),
    }),
  );
}

beforeAll(async () => {
  product = await startProduct();
  await product.run('token-refresher');
  const gsm = product.emulator.info().gsms[0];
  sites = gsm?.sites ?? [];
  consoleName = gsm?.name ?? '';
  await run();
  await product.healthAlerts();
});
afterAll(async () => product?.close());

describe('Function: infection-alerter (health alerts)', () => {
  const changes = [
    ['protection-off', 'protection-on'],
    ['go-offline', 'come-online'],
    ['uninstall', 'reinstall'],
    ['other-av-on', 'other-av-off'],
    ['infect', 'clean'],
  ] as const;
  const kinds = ['protection-off', 'offline', 'uninstalled', 'other-antivirus', 'infected'];

  it('triggers each endpoint kind once, naming the console, site, host and MachineID', async () => {
    const targets = ids(0, changes.length);
    for (const [i, [on]] of changes.entries())
      product.emulator.endpointAction(targets[i] ?? '', on);
    await run();
    await run();
    const alerts = await product.healthAlerts();
    // Protection off and an infection also make the agent ask for attention
    // (BasicInfo.AttentionRequired): the specific kind is the one alert for the problem.
    const expected = kinds.map((k, i) => `trigger ${k}/${targets[i]}`);
    expect(summary(alerts)).toEqual(expected.sort());
    const off = alerts.find((a) => a.kind === 'protection-off');
    expect(off).toMatchObject({
      eventId: `protection-off/${targets[0]}#1`,
      severity: 'high',
      consoleName,
      site: sites[0]?.key,
      siteName: sites[0]?.name,
      hostName: expect.stringMatching(/^[A-Z]+-/),
      machineId: targets[0],
      facts: { shieldsOff: 'ProtectionEnabled' },
      attributes: {
        kind: { Value: 'protection-off' },
        severity: { Value: 'high' },
        gsm: { Value: product.gsm },
        site: { Value: sites[0]?.key },
      },
      chatbot: { version: '1.0', source: 'custom' },
    });
    expect(alerts.find((a) => a.kind === 'offline')?.facts.daysSinceSeen).toBeGreaterThanOrEqual(
      29,
    );
    expect(alerts.find((a) => a.kind === 'infected')?.facts.threat).toContain('Trojan');
  });

  it('resolves each alert once when its condition clears, with the same id', async () => {
    const targets = ids(0, changes.length);
    product.emulator.advanceClock(60);
    for (const [i, [, off]] of changes.entries())
      product.emulator.endpointAction(targets[i] ?? '', off);
    await run();
    await run();
    const alerts = await product.healthAlerts();
    const expected = kinds.map((k, i) => `resolve ${k}/${targets[i]}`);
    expect(summary(alerts)).toEqual(expected.sort());
    expect(alerts.every((a) => a.eventId.endsWith('#2'))).toBe(true);
  });

  it('alerts a site whose licence is expiring or expired, once per site', async () => {
    product.emulator.setSiteLicence(sites[1]?.key ?? '', 10);
    product.emulator.setSiteLicence(sites[2]?.key ?? '', 0);
    // Licences change with time, not with entries: the periodic full check finds them.
    await product.aws.clients.s3.send(
      new PutObjectCommand({
        Bucket: product.res.bucket,
        Key: `state/health/${product.gsm}/full-check.json`,
        Body: JSON.stringify({ at: '2000-01-01T00:00:00Z' }),
      }),
    );
    await run();
    await run();
    const alerts = await product.healthAlerts();
    expect(summary(alerts)).toEqual([
      `trigger licence-expired/site/${sites[2]?.key}`,
      `trigger licence-expiring/site/${sites[1]?.key}`,
    ]);
    expect(alerts.find((a) => a.kind === 'licence-expiring')).toMatchObject({
      siteName: sites[1]?.name,
      machineId: null,
      facts: { daysRemaining: 10, isExpired: false },
    });
  });

  it('sends the daily digest with the full check: open by kind and site, the day’s changes', async () => {
    // One from the first run's full check, one from the full check just forced.
    const digests = await product.digests();
    expect(digests).toHaveLength(2);
    const digest = digests.at(-1) as
      | {
          consoleName: string;
          openByKind: Record<string, number>;
          openBySite: { site: string; siteName: string; kinds: Record<string, number> }[];
          openedToday: Record<string, number>;
          resolvedToday: Record<string, number>;
          report: { s3Uri: string; consoleUrl: string } | null;
        }
      | undefined;
    expect(digest?.consoleName).toBe(consoleName);
    // It names the page the report builder keeps at the GSM's latest key, in the same bucket.
    const key = `pages/daily/gsm=${product.gsm}/latest/report.html`;
    expect(digest?.report).toEqual({
      s3Uri: `s3://${product.res.bucket}/${key}`,
      consoleUrl: `https://console.aws.amazon.com/s3/object/${product.res.bucket}?prefix=${encodeURIComponent(key)}`,
    });
    expect(digest?.openByKind).toMatchObject({ 'licence-expiring': 1, 'licence-expired': 1 });
    const expiredSite = digest?.openBySite.find((x) => x.site === sites[2]?.key);
    expect(expiredSite?.siteName).toBe(sites[2]?.name);
    expect(expiredSite?.kinds['licence-expired']).toBe(1);
    // The second test resolved one alert of each endpoint kind earlier today.
    expect(digest?.resolvedToday).toMatchObject({
      'protection-off': 1,
      offline: 1,
      uninstalled: 1,
      'other-antivirus': 1,
      infected: 1,
    });
    expect(digest?.openedToday['licence-expired']).toBe(1);
  });

  it('follows the rules object: a kind off for one site, tuned for the GSM', async () => {
    await putRules({
      kinds: { 'attention-required': { enabled: false } },
      gsms: {
        [product.gsm]: {
          kinds: { 'protection-off': { severity: 'critical' } },
          sites: { [sites[3]?.key ?? '']: { kinds: { uninstalled: { enabled: false } } } },
        },
      },
    });
    const [a, b] = ids(3, 2);
    product.emulator.advanceClock(60);
    product.emulator.endpointAction(a ?? '', 'uninstall');
    product.emulator.endpointAction(b ?? '', 'protection-off');
    await run();
    const alerts = await product.healthAlerts();
    expect(alerts.map((x) => `${x.id} ${x.severity}`)).toEqual([`protection-off/${b} critical`]);
    await putRules({});
  });

  it('fails the run with the path of a bad setting, sending nothing on a guess and losing nothing', async () => {
    await putRules({ kinds: { offline: { days: 'seven' } } });
    const [x] = ids(4, 1);
    product.emulator.advanceClock(60);
    product.emulator.endpointAction(x ?? '', 'infect');
    await expect(run()).rejects.toThrow(/alert rules .* invalid at kinds\.offline\.days/);
    expect(await product.healthAlerts()).toEqual([]);
    expect(await product.alerts()).toEqual([]);
    // The failed run walked nothing: once the rules are mended, the next run sees the change.
    await putRules({});
    await run();
    const about = (await product.healthAlerts()).filter((a) => a.machineId === x);
    expect(summary(about)).toEqual([`trigger infected/${x}`]);
  });
});
