import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { userAgent, VERSION } from '../../lib/index.js';

describe('Constant: VERSION', () => {
  it('matches the version in package.json', () => {
    const pkg = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    expect(VERSION).toBe(pkg.version);
    expect(userAgent()).toContain(`Skywatch/${pkg.version} `);
  });
});
