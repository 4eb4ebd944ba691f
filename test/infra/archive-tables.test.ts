import { beforeAll, describe, expect, it } from 'vitest';
import { AgentStatus, DNSPAgentStatus } from '../../lib/schemas/index.js';
import { type Json, logicalId, ref, type Synth, synth } from './helpers.js';

let s: Synth;
beforeAll(() => {
  s = synth();
});

const TABLES = [
  'agent_status',
  'dnsp_status',
  'gsm_usage',
  'site_usage',
  'dnsp_usage',
  'alert_events',
];

/** The TableInput of a table by its Glue name. */
function table(name: string, from: Synth = s): Json {
  const glueTable = from.stack.archiveQuery?.tables[name];
  if (!glueTable) throw new Error(`no table ${name}`);
  return from.template.toJSON().Resources[logicalId(glueTable)].Properties.TableInput;
}

const columnType = (name: string, column: string): string =>
  table(name).StorageDescriptor.Columns.find((c: { Name: string }) => c.Name === column)?.Type;

/** `s3://<bucket>/<suffix>` as CloudFormation joins it. */
const inBucket = (suffix: string) => ({
  'Fn::Join': ['', ['s3://', ref(s.stack.archive.bucket), suffix]],
});

describe('Archive tables', () => {
  it('creates one external table per archived dataset in the archive database', () => {
    const database = s.stack.archiveQuery?.database;
    if (!database) throw new Error('no archive database');
    const tables = Object.values(s.template.findResources('AWS::Glue::Table'));
    expect(tables.map((t) => t.Properties.TableInput.Name).sort()).toEqual([...TABLES].sort());
    for (const t of tables) {
      expect(t.Properties.DatabaseName).toEqual(ref(database));
      expect(t.Properties.CatalogId).toEqual({ Ref: 'AWS::AccountId' });
      expect(t.Properties.TableInput.TableType).toBe('EXTERNAL_TABLE');
    }
  });

  it("locates each table at its dataset's prefix under reports/ in the archive bucket", () => {
    expect(table('agent_status').StorageDescriptor.Location).toEqual(
      inBucket('/reports/agent-status/'),
    );
    expect(table('dnsp_status').StorageDescriptor.Location).toEqual(
      inBucket('/reports/dnsp-status/'),
    );
    expect(table('gsm_usage').StorageDescriptor.Location).toEqual(inBucket('/reports/gsm-usage/'));
    expect(table('site_usage').StorageDescriptor.Location).toEqual(
      inBucket('/reports/site-usage/'),
    );
    expect(table('dnsp_usage').StorageDescriptor.Location).toEqual(
      inBucket('/reports/dnsp-usage/'),
    );
  });

  it('reads gzip NDJSON text with the Hive JSON SerDe', () => {
    for (const name of TABLES) {
      const { StorageDescriptor: sd, Parameters: p } = table(name);
      expect(sd.SerdeInfo).toEqual({
        SerializationLibrary: 'org.apache.hive.hcatalog.data.JsonSerDe',
      });
      expect(sd.InputFormat).toBe('org.apache.hadoop.mapred.TextInputFormat');
      expect(sd.OutputFormat).toBe('org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat');
      expect(sd.Compressed).toBe(true);
      expect([p.classification, p.compressionType, p.EXTERNAL]).toEqual(['json', 'gzip', 'TRUE']);
    }
  });

  it('partitions snapshots by gsm_key and date, usage reports also by type, all strings', () => {
    const keys = (name: string) => table(name).PartitionKeys;
    const gsmDate = [
      { Name: 'gsm_key', Type: 'string' },
      { Name: 'date', Type: 'string' },
    ];
    expect(keys('agent_status')).toEqual(gsmDate);
    expect(keys('dnsp_status')).toEqual(gsmDate);
    for (const name of ['gsm_usage', 'site_usage', 'dnsp_usage']) {
      expect(keys(name)).toEqual([...gsmDate, { Name: 'type', Type: 'string' }]);
    }
  });

  it('projects the gsm_key partition as an enum of the configured GSM keys', () => {
    for (const name of TABLES) {
      expect(table(name).Parameters).toMatchObject({
        'projection.enabled': 'true',
        'projection.gsm_key.type': 'enum',
        'projection.gsm_key.values': 'AAAA-BBBB-CCCC-DDDD-EEEE,FFFF-GGGG-HHHH-IIII-JJJJ',
      });
    }
  });

  it('projects the date partition day by day over the days reports are kept', () => {
    const longer = synth({ reportTransitionDays: 60, reportExpirationDays: 730 });
    for (const name of TABLES) {
      expect(table(name, longer).Parameters).toMatchObject({
        'projection.date.type': 'date',
        'projection.date.format': 'yyyy-MM-dd',
        'projection.date.range': 'NOW-730DAYS,NOW',
        'projection.date.interval': '1',
        'projection.date.interval.unit': 'DAYS',
      });
    }
  });

  it('projects the type partition as an enum of the report types archived', () => {
    const gsmTypes = 'ActiveEndpoints,ActiveEndpointsWithoutHidden,EndpointsSeenInLast30Days';
    const typeProjection = (name: string) => {
      const p = table(name).Parameters;
      return [p['projection.type.type'], p['projection.type.values']];
    };
    expect(typeProjection('gsm_usage')).toEqual(['enum', gsmTypes]);
    expect(typeProjection('site_usage')).toEqual(['enum', gsmTypes]);
    expect(typeProjection('dnsp_usage')).toEqual(['enum', 'DevicesSeenInLast30Days']);
    expect(typeProjection('agent_status')).toEqual([undefined, undefined]);
  });

  it('maps every partition into the storage location template, in key order', () => {
    expect(table('agent_status').Parameters['storage.location.template']).toEqual(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Athena's ${…} placeholders.
      inBucket('/reports/agent-status/gsm=${gsm_key}/date=${date}/'),
    );
    expect(table('site_usage').Parameters['storage.location.template']).toEqual(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Athena's ${…} placeholders.
      inBucket('/reports/site-usage/gsm=${gsm_key}/date=${date}/type=${type}/'),
    );
  });

  it('has a column for each top-level field of the status records, lower-cased', () => {
    const names = (name: string) =>
      table(name).StorageDescriptor.Columns.map((c: { Name: string }) => c.Name);
    expect(names('agent_status')).toEqual(
      Object.keys(AgentStatus._zod.innerType.shape).map((k) => k.toLowerCase()),
    );
    expect(names('dnsp_status')).toEqual(
      Object.keys(DNSPAgentStatus._zod.innerType.shape).map((k) => k.toLowerCase()),
    );
  });

  it('types the agent status groups as structs of their fields', () => {
    expect(columnType('agent_status', 'basicinfo')).toBe(
      'struct<statusrefreshtime:string,managed:boolean,sku:string,partnernumber:bigint,version:string,activethreats:bigint,devicetype:string,attentionrequired:boolean,infected:boolean>',
    );
    expect(columnType('agent_status', 'systemanalyzer')).toBe(
      'struct<systemanalyzerscore:bigint,hardwarescore:string,softwarescore:string,threatsscore:string>',
    );
  });

  it('types counts as bigint, flags as boolean, and timestamps (nullable or not) as strings', () => {
    expect(columnType('agent_status', 'timesseen')).toBe('bigint');
    expect(columnType('agent_status', 'hidden')).toBe('boolean');
    expect(columnType('agent_status', 'activationstatustime')).toBe('string');
    expect(columnType('dnsp_status', 'trafficcountlast24hours')).toBe('bigint');
    expect(columnType('dnsp_status', 'uninstalleddate')).toBe('string');
  });

  it('types a field of several scalar types (ScriptShieldStatus) as a string', () => {
    expect(columnType('agent_status', 'enabledfeatures')).toContain(',scriptshieldstatus:string,');
  });

  it("types a site usage row as the report info and one site, and DNSP usage's sites as an array", () => {
    expect(columnType('site_usage', 'reportinfo')).toBe(
      'struct<count:bigint,sitekeyfilter:string,reporttype:string,effectivedate:string,gsmkey:string>',
    );
    expect(columnType('site_usage', 'site')).toBe(
      'struct<siteid:string,sitekey:string,sitename:string,licensetype:string,expirydate:string,sitestate:string,sitestatechangeddate:string,totalendpoints:bigint>',
    );
    expect(columnType('dnsp_usage', 'sites')).toMatch(
      /^array<struct<siteid:string,sitekey:string,.*,dnspenabled:boolean,.*,totaldnspagents:bigint>>$/,
    );
  });

  it('never names a column like a partition: the GSM part of a GSM usage report is column gsm', () => {
    for (const name of TABLES) {
      const t = table(name);
      const partitions = t.PartitionKeys.map((k: { Name: string }) => k.Name);
      for (const column of t.StorageDescriptor.Columns) {
        expect(partitions, `${name}.${column.Name}`).not.toContain(column.Name);
      }
    }
    expect(columnType('gsm_usage', 'gsm')).toBe(
      'struct<gsmconsolename:string,licensetype:string,expirydate:string,totalsiteswithouttrial:bigint,totaltrialsites:bigint,totalendpointswithouttrial:bigint,totaltrialendpoints:bigint>',
    );
  });

  it('leaves the tables out when athena is false', () => {
    synth({ athena: false }).template.resourceCountIs('AWS::Glue::Table', 0);
  });
});
