import { App, Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { ArchiveDataset } from '../../infra/constructs/archive-datasets.js';
import { archiveTable } from '../../infra/constructs/archive-table.js';

/** One table in a fresh stack, resolved to its TableInput. */
function build(dataset: Partial<ArchiveDataset>, gsmKeys: string[] = ['AAAA-BBBB-CCCC-DDDD-EEEE']) {
  const stack = new Stack(new App(), 'Test');
  const table = archiveTable(stack, 'Table', {
    dataset: {
      table: 't',
      prefix: 'gsm-usage',
      description: 'test',
      record: z.object({ GSM: z.object({ Name: z.string() }), Count: z.number().int() }),
      ...dataset,
    },
    bucket: new s3.Bucket(stack, 'B'),
    reportsPrefix: 'reports/',
    databaseName: 'db',
    gsmKeys,
    retentionDays: 400,
  });
  return stack.resolve(table.tableInput);
}

describe('Function: archiveTable', () => {
  it('keeps a top-level GSM field as the gsm column, next to the gsm_key partition', () => {
    const input = build({});
    expect(input.storageDescriptor.columns.map((c: { name: string }) => c.name)).toEqual([
      'gsm',
      'count',
    ]);
    expect(input.partitionKeys.map((k: { name: string }) => k.name)).toEqual(['gsm_key', 'date']);
  });

  it('reads the gsm_key partition from the gsm= segment of the key', () => {
    const template = build({}).parameters['storage.location.template'];
    expect(JSON.stringify(template)).toContain(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Athena's ${…} placeholders.
      '/reports/gsm-usage/gsm=${gsm_key}/date=${date}/',
    );
  });

  it('refuses a column named like a partition column, which Athena could not tell apart', () => {
    expect(() => build({ record: z.object({ Date: z.string() }) })).toThrow(
      /ArchiveTable Table: column date clashes with the partition column of that name/,
    );
  });

  it('refuses an empty list of GSM keys, which would project no partition', () => {
    expect(() => build({}, [])).toThrow(/needs at least one GSM key/);
  });
});
