import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { baseUrlScope, hasScope, missingScopes, parseScope } from '../../lib/index.js';

describe('Function: parseScope', () => {
  it.each([
    ['["SkyStatus.GSM","SkyStatus.Reporting"]', ['SkyStatus.GSM', 'SkyStatus.Reporting']],
    ['[SkyStatus.GSM, SkyStatus.Reporting]', ['SkyStatus.GSM', 'SkyStatus.Reporting']],
    ['SkyStatus.GSM SkyStatus.Reporting', ['SkyStatus.GSM', 'SkyStatus.Reporting']],
    ['[http://h:1/service, ECom.Shop]', ['http://h:1/service', 'ECom.Shop']],
    ['[]', []],
    ['', []],
  ])('parses %s', (raw, expected) => {
    expect(parseScope(raw)).toEqual(expected);
  });

  it('reads every rendering of any scope list alike', () => {
    const name = fc.stringMatching(/^[A-Za-z][A-Za-z0-9.:/_-]{0,20}$/);
    fc.assert(
      fc.property(fc.array(name, { maxLength: 6 }), (names) => {
        expect(parseScope(JSON.stringify(names))).toEqual(names);
        expect(parseScope(`[${names.join(', ')}]`)).toEqual(names);
        expect(parseScope(names.join(' '))).toEqual(names);
      }),
    );
  });
});

describe('Function: hasScope', () => {
  it('matches case-insensitively and ignores a trailing slash', () => {
    expect(hasScope(['ECom.Orders'], 'ecom.orders')).toBe(true);
    expect(hasScope(['http://h/service'], 'http://h/service/')).toBe(true);
    expect(hasScope(['SkyStatus.GSM'], 'SkyStatus.Reporting')).toBe(false);
  });

  it('lists requested scopes that were not granted', () => {
    expect(missingScopes(['A', 'B', 'C'], ['b'])).toEqual(['A', 'C']);
    expect(baseUrlScope('http://h/service//')).toBe('http://h/service');
  });
});
