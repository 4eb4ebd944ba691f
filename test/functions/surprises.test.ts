import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { describe, expect, it, vi } from 'vitest';
import { SurpriseCounter } from '../../functions/shared/surprises.js';
import type { SurpriseEvent } from '../../lib/index.js';

function prepare() {
  const logger = new Logger({ serviceName: 'test', logLevel: 'SILENT' });
  const metrics = new Metrics({ namespace: 'Test', serviceName: 'test' });
  const warn = vi.spyOn(logger, 'warn').mockImplementation(() => {});
  const emitted: { dimensions: Record<string, string>; name: string; value: number }[] = [];
  vi.spyOn(metrics, 'singleMetric').mockImplementation(() => {
    const dimensions: Record<string, string> = {};
    return {
      addDimensions: (d: Record<string, string>) => Object.assign(dimensions, d),
      addMetric: (name: string, _unit: unknown, value: number) =>
        emitted.push({ dimensions, name, value }),
    } as unknown as Metrics;
  });
  return { counter: new SurpriseCounter({ logger, metrics }), warn, emitted };
}

const event = (i: number, rule: SurpriseEvent['rule'] = 'null'): SurpriseEvent => ({
  model: 'AgentStatus page',
  at: `QueryResults[${i}].LastSeen`,
  path: 'QueryResults.LastSeen',
  rule,
});

describe('Class: SurpriseCounter', () => {
  it('counts by model, path and rule and emits one metric each at flush', () => {
    // Prepare
    const { counter, emitted } = prepare();
    // Act
    for (let i = 0; i < 40; i++) counter.record(event(i));
    counter.record(event(3, 'needed'));
    counter.flush();
    // Assess
    expect(emitted).toEqual([
      {
        name: 'ServiceSurprises',
        value: 40,
        dimensions: { Model: 'AgentStatus page', Path: 'QueryResults.LastSeen', Rule: 'null' },
      },
      {
        name: 'EntriesSkipped',
        value: 1,
        dimensions: { Model: 'AgentStatus page', Path: 'QueryResults.LastSeen', Rule: 'needed' },
      },
    ]);
    counter.flush();
    expect(emitted).toHaveLength(2);
  });

  it('logs a sample of each path and rule, naming them and never a value', () => {
    const { counter, warn } = prepare();
    for (let i = 0; i < 40; i++) counter.record(event(i));
    counter.flush();
    for (let i = 0; i < 40; i++) counter.record(event(i));
    expect(warn).toHaveBeenCalledTimes(3);
    expect(warn.mock.calls[0]?.[1]).toEqual({
      surprise: {
        model: 'AgentStatus page',
        at: 'QueryResults[0].LastSeen',
        path: 'QueryResults.LastSeen',
        rule: 'null',
      },
    });
  });
});
