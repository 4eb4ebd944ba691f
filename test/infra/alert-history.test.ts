import { beforeAll, describe, expect, it } from 'vitest';
import type { SkywatchFunction } from '../../infra/constructs/skywatch-function.js';
import { type Json, logicalId, prefixArn, roleStatements, type Synth, synth } from './helpers.js';

let s: Synth;
beforeAll(() => {
  s = synth();
});

/** The TableInput of the alert history's table. */
function table(): Json {
  const glueTable = s.stack.archiveQuery?.tables.alert_events;
  if (!glueTable) throw new Error('no alert_events table');
  return s.template.toJSON().Resources[logicalId(glueTable)].Properties.TableInput;
}

const resources = (statement: Json): Json[] => [statement.Resource].flat();
const actions = (statement: Json): string[] => [statement.Action].flat();
const s3On = (fn: SkywatchFunction, prefix: string) =>
  roleStatements(s.template, fn.role)
    .filter((st: Json) => resources(st).some((r) => JSON.stringify(r).includes(`"/${prefix}`)))
    .flatMap(actions)
    .sort();

describe('Alert history: the table and who may write it', () => {
  it('has an alert_events table over reports/alert-events/, partitioned by gsm_key and date', () => {
    const input = table();
    expect(input.PartitionKeys).toEqual([
      { Name: 'gsm_key', Type: 'string' },
      { Name: 'date', Type: 'string' },
    ]);
    const joined: unknown[] = input.Parameters['storage.location.template']['Fn::Join'][1];
    const projected = (column: string) => `\${${column}}`;
    expect(joined.at(-1)).toBe(
      `/reports/alert-events/gsm=${projected('gsm_key')}/date=${projected('date')}/`,
    );
    expect(input.Parameters['projection.date.type']).toBe('date');
  });

  it('types the flat columns of an event row: counts bigint, names and times strings', () => {
    const columns = Object.fromEntries(
      table().StorageDescriptor.Columns.map((c: Json) => [c.Name, c.Type]),
    );
    expect(columns).toMatchObject({
      at: 'string',
      event: 'string',
      alertid: 'string',
      eventid: 'string',
      seq: 'bigint',
      sitename: 'string',
      destination: 'string',
      status: 'bigint',
      resolveseconds: 'bigint',
    });
  });

  for (const name of ['infectionAlerter', 'alertNotifier'] as const) {
    it(`lets the ${name} put objects under reports/alert-events/, and read nothing there`, () => {
      const fn = s.stack.functions[name];
      const { bucket } = s.stack.archive;
      const put = roleStatements(s.template, fn.role).find((st: Json) =>
        resources(st).some(
          (r) => JSON.stringify(r) === JSON.stringify(prefixArn(bucket, 'reports/alert-events/')),
        ),
      );
      expect(actions(put ?? {})).toContain('s3:PutObject');
      expect(
        s3On(fn, 'reports/').filter((a) => !a.startsWith('s3:Put') && a !== 's3:Abort*'),
      ).toEqual([]);
      // Nothing else of the archive: no other prefix under reports/.
      expect(
        roleStatements(s.template, fn.role)
          .flatMap(resources)
          .filter((r: Json) => /\/reports\//.test(JSON.stringify(r)))
          .map((r: Json) => JSON.stringify(r)),
      ).toEqual([JSON.stringify(prefixArn(bucket, 'reports/alert-events/'))]);
    });
  }
});
