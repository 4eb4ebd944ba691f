import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/root.js';

interface PackageRule {
  readonly groupName?: string;
  readonly matchPackageNames?: readonly string[];
}

const readJson = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));
const config = readJson('renovate.json') as { packageRules: PackageRule[] };
const pkg = readJson('package.json') as Record<string, Record<string, string> | undefined>;
const dependencies = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });

/** Renovate's package-name patterns as used here: exact names and `scope/**` globs. */
const matches = (pattern: string, name: string) =>
  pattern.endsWith('/**') ? name.startsWith(pattern.slice(0, -2)) : pattern === name;

/** The group Renovate puts a package in (the last matching rule wins, as in Renovate). */
const groupOf = (name: string) =>
  config.packageRules
    .filter((rule) => rule.groupName && rule.matchPackageNames?.some((p) => matches(p, name)))
    .at(-1)?.groupName;

describe('renovate.json', () => {
  it.each([
    ['AWS SDK', /^@aws-sdk\//],
    ['AWS CDK', /^(aws-cdk|aws-cdk-lib|constructs|cdk-nag)$/],
    ['Powertools for AWS Lambda', /^@aws-lambda-powertools\//],
  ])('puts every %s dependency of package.json in one group', (group, family) => {
    const members = dependencies.filter((name) => family.test(name));
    expect(members.length).toBeGreaterThan(0);
    expect(members.map(groupOf)).toEqual(members.map(() => group));
  });

  it('leaves other dependencies out of those groups', () => {
    expect(groupOf('zod')).toBeUndefined();
    expect(groupOf('aws-lambda')).toBeUndefined();
  });

  it('keeps the lock file fresh on a schedule', () => {
    expect(readJson('renovate.json')).toMatchObject({
      lockFileMaintenance: { enabled: true, schedule: [expect.any(String)] },
      schedule: [expect.any(String)],
    });
  });
});
