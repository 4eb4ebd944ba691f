import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Product, startProduct } from '../support/product.js';

let product: Product;
let sites: { key: string }[];
beforeAll(async () => {
  product = await startProduct({}, { INFECTION_SUMMARY_THRESHOLD: '5', ALERT_ON_CLEAN: 'true' });
  await product.run('token-refresher');
  sites = product.emulator.info().gsms[0]?.sites ?? [];
  await product.run('infection-alerter');
  await product.alerts();
});
afterAll(async () => product?.close());

const ids = (site: number, n: number) =>
  product.emulator.machineIds(sites[site]?.key ?? '', 30).slice(0, n);

describe('Function: infection-alerter', () => {
  it('alerts each new infection once, with host, site, threat and times', async () => {
    const [a, b] = ids(0, 2);
    product.emulator.endpointAction(a ?? '', 'infect', 'Ransom|Win64|LockBit');
    product.emulator.endpointAction(b ?? '', 'infect');
    await product.run('infection-alerter');
    await product.run('infection-alerter');
    const alerts = await product.alerts();
    expect(alerts.map((x) => x.kind)).toEqual(['infection', 'infection']);
    const first = alerts.find((x) => (x.details as { machineId: string }).machineId === a);
    expect(first).toMatchObject({
      severity: 'critical',
      gsm: product.gsm,
      site: sites[0]?.key,
      details: {
        threat: ['Ransom', 'Win64', 'LockBit'],
        activeThreats: expect.any(Number),
        hostName: expect.any(String),
      },
    });
    expect(first?.attributes).toMatchObject({
      kind: { Value: 'infection' },
      severity: { Value: 'critical' },
    });
  });

  it('alerts once when two runs overlap', async () => {
    const [c] = ids(1, 1);
    product.emulator.endpointAction(c ?? '', 'infect');
    await Promise.all([
      product.run('infection-alerter'),
      product.run('infection-alerter'),
      product.run('infection-alerter'),
    ]);
    const alerts = await product.alerts();
    expect(alerts.filter((x) => x.kind === 'infection')).toHaveLength(1);
  });

  it('misses nothing that changes between runs, including a re-infection after cleaning', async () => {
    const [a] = ids(0, 1);
    product.emulator.endpointAction(a ?? '', 'clean');
    await product.run('infection-alerter');
    product.emulator.advanceClock(60);
    product.emulator.endpointAction(a ?? '', 'infect', 'Worm|Win32|Again');
    await product.run('infection-alerter');
    const kinds = (await product.alerts()).map(
      (x) => `${x.kind}:${(x.details as { machineId: string }).machineId === a}`,
    );
    expect(kinds).toEqual(['infection-cleaned:true', 'infection:true']);
  });

  it('sends one summary instead of a flood when many endpoints turn at once', async () => {
    const many = [...ids(2, 4), ...ids(3, 4)];
    for (const id of many) product.emulator.endpointAction(id, 'infect');
    await product.run('infection-alerter');
    const alerts = await product.alerts();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ kind: 'infection-summary', details: { count: many.length } });
  });
});
