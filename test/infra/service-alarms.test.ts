import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { FUNCTION_ENTRIES, type FunctionName } from '../../infra/functions.js';
import { type Json, ROOT, ref, type Synth, synth } from './helpers.js';

let off: Synth;
let on: Synth;
beforeAll(() => {
  off = synth();
  on = synth({ reportLinks: true });
});

/**
 * The `service` dimension a function's metrics really carry: the name its handler gives
 * observability() (functions/shared/observability.ts), which Powertools prefers to the
 * POWERTOOLS_SERVICE_NAME the stack sets.
 */
const serviceOf = (fn: FunctionName) => {
  const source = readFileSync(path.join(ROOT, FUNCTION_ENTRIES[fn]), 'utf8');
  const service = /observability\('([^']+)'\)/.exec(source)?.[1];
  if (!service) throw new Error(`${fn} names no service`);
  return service;
};

/** Each count and a function that reports it (functions/shared/alert-history.ts, page-links.ts…). */
const COUNTS: [string, FunctionName][] = [
  ['AuthFailures', 'tokenRefresher'],
  ['AlertRoutingFallback', 'infectionAlerter'],
  ['AlertMutesFallback', 'infectionAlerter'],
  ['AlertHistoryWriteFailed', 'infectionAlerter'],
  ['AlertHistoryWriteFailed', 'alertNotifier'],
];
const PAGE_LINK_COUNTS: [string, FunctionName][] = [
  ['PageLinkFailures', 'infectionAlerter'],
  ['PageLinkFailures', 'reportBuilder'],
];

/** Alarms on the functions' own metrics, as `metric service`. */
const skywatchAlarms = (s: Synth) =>
  Object.values(s.template.findResources('AWS::CloudWatch::Alarm'))
    .map((r: Json) => r.Properties)
    .filter((p: Json) => p.Namespace === 'Skywatch')
    .map((p: Json) => `${p.MetricName} ${p.Dimensions.map((d: Json) => d.Value).join(',')}`)
    .sort();
const named = (counts: [string, FunctionName][]) =>
  counts.map(([m, fn]) => `${m} ${serviceOf(fn)}`);

describe('ServiceAlarms: counts of what fails no invocation', () => {
  it.each([...COUNTS, ...PAGE_LINK_COUNTS])(
    'alarms on any %s of the %s, under the service its metrics carry, to the ops topic',
    (metric, fn) => {
      on.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'Skywatch',
        MetricName: metric,
        Dimensions: [{ Name: 'service', Value: serviceOf(fn) }],
        Statistic: 'Sum',
        Period: 300,
        EvaluationPeriods: 1,
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
        AlarmActions: [ref(on.stack.ops.topic)],
        OKActions: [ref(on.stack.ops.topic)],
        AlarmDescription: Match.stringLikeRegexp('^Skywatch .*: check |\\. Check '),
      });
    },
  );

  it('alarms on no other count, nor under a service that does not report it', () => {
    expect(skywatchAlarms(off)).toEqual(
      [...named(COUNTS), `ArchiveCompleted ${serviceOf('reportFetcher')}`].sort(),
    );
  });

  it('alarms on page links only when the functions sign them (report links on)', () => {
    expect(skywatchAlarms(on)).toEqual(
      [
        ...named(COUNTS),
        ...named(PAGE_LINK_COUNTS),
        `ArchiveCompleted ${serviceOf('reportFetcher')}`,
      ].sort(),
    );
  });

  it('sends the operator to a section the operations guide has', () => {
    const guide = readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8');
    const headings = new Set(guide.match(/^#{2,3} .+$/gm)?.map((h) => h.replace(/^#+ /, '')));
    const descriptions = Object.values(on.template.findResources('AWS::CloudWatch::Alarm'))
      .filter((r: Json) => r.Properties.Namespace === 'Skywatch')
      .map((r: Json) => String(r.Properties.AlarmDescription))
      .filter((d) => d.includes('docs/operations.md'));
    expect(descriptions).toHaveLength(named(PAGE_LINK_COUNTS).length + named(COUNTS).length - 1);
    for (const d of descriptions) {
      const section = /docs\/operations\.md, "([^"]+)"/.exec(d)?.[1] ?? '';
      expect({ d, section: headings.has(section) }).toEqual({ d, section: true });
    }
  });
});
