import { App } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { settingsFromContext } from '../../infra/config/context.js';
import { resolveSettings } from '../../infra/config/resolve-settings.js';
import { DEFAULT_SETTINGS, SkywatchConfigError } from '../../infra/config/settings.js';
import { createApp } from '../../infra/skywatch-app.js';
import { SkywatchStack } from '../../infra/skywatch-stack.js';
import { DEFAULT_ROUTING } from '../../lib/alerts/index.js';
import { cdkJsonContext, SETTINGS } from './helpers.js';

/** The problems resolveSettings reports for these settings (none → []). */
function issues(settings: object): readonly string[] {
  try {
    resolveSettings(settings);
    return [];
  } catch (error) {
    if (error instanceof SkywatchConfigError) return error.issues;
    throw error;
  }
}

describe('resolveSettings', () => {
  it('fills every default around the three required settings', () => {
    expect(resolveSettings(SETTINGS)).toEqual({
      ...DEFAULT_SETTINGS,
      ...SETTINGS,
      alertEmail: undefined,
      opsEmail: undefined,
      alertRouting: DEFAULT_ROUTING,
    });
  });

  it('reports every missing required setting at once', () => {
    expect(issues({})).toEqual([
      'baseUrl is required: the https URL of the service (got undefined)',
      'authUrl is required: the https URL of the service (got undefined)',
      'gsmKeys must list at least one GSM keycode; got undefined',
    ]);
  });

  it('throws an error whose message names each problem and how to set it', () => {
    expect(() => resolveSettings({ ...SETTINGS, logLevel: 'LOUD' })).toThrow(
      /Invalid Skywatch configuration \(1 problem\)\.\n {2}- logLevel must be one of DEBUG, INFO, WARN, ERROR; got 'LOUD'\n.*-c skywatch:<name>=<value>/,
    );
  });

  it('refuses plain-http service URLs', () => {
    expect(issues({ ...SETTINGS, authUrl: 'http://skywatch.test/identity' })).toEqual([
      "authUrl must use https (tokens travel on it); got 'http://skywatch.test/identity'",
    ]);
  });

  it('upper-cases keycodes and refuses malformed or repeated ones by position', () => {
    expect(resolveSettings({ ...SETTINGS, gsmKeys: ['aaaa-bbbb-cccc-dddd-eeee'] }).gsmKeys).toEqual(
      ['AAAA-BBBB-CCCC-DDDD-EEEE'],
    );
    expect(
      issues({
        ...SETTINGS,
        gsmKeys: ['AAAA-BBBB-CCCC-DDDD-EEEE', 'AAAA-BBBB', 'aaaa-bbbb-cccc-dddd-eeee'],
      }),
    ).toEqual([
      "gsmKeys[1] must be a keycode like ABCD-EFGH-IJKL-MNOP-QRST; got 'AAAA-BBBB'",
      'gsmKeys[2] repeats AAAA-BBBB-CCCC-DDDD-EEEE',
    ]);
  });

  it('requires the token refresh to run before the access token expires', () => {
    expect(issues({ ...SETTINGS, tokenRefreshMinutes: 6 })).toEqual([
      'tokenRefreshMinutes must refresh at least once per access-token lifetime: 6 min exceeds accessTokenLifetimeSeconds (300 s)',
    ]);
    expect(
      issues({ ...SETTINGS, tokenRefreshMinutes: 10, accessTokenLifetimeSeconds: 600 }),
    ).toEqual([]);
  });

  it('requires reports to expire after they move to Standard-IA, which takes 30 days at least', () => {
    expect(issues({ ...SETTINGS, reportTransitionDays: 90, reportExpirationDays: 60 })).toEqual([
      'reportExpirationDays must be greater than reportTransitionDays (90); got 60',
    ]);
    expect(issues({ ...SETTINGS, reportTransitionDays: 10 })).toEqual([
      'reportTransitionDays must be an integer from 30 to 36500; got 10',
    ]);
  });

  it('accepts only CloudWatch Logs retention values', () => {
    expect(issues({ ...SETTINGS, logRetentionDays: 31 })[0]).toMatch(
      /^logRetentionDays must be one of 1, 3, 5, 7, 14, 30, .*; got 31$/,
    );
  });

  it('refuses a burst limit below the rate limit', () => {
    expect(issues({ ...SETTINGS, webhookRateLimit: 50, webhookBurstLimit: 20 })).toEqual([
      'webhookBurstLimit must be at least webhookRateLimit (50); got 20',
    ]);
  });

  it('refuses malformed times, e-mails, booleans and numbers', () => {
    expect(
      issues({
        ...SETTINGS,
        reportFetchTimeUtc: '6am',
        alertEmail: 'soc',
        athena: 'yes',
        blockedUrlBaselineMultiplier: 0.5,
        archiveGzipLevel: 10,
      }),
    ).toEqual([
      "alertEmail must be an e-mail address; got 'soc'",
      "reportFetchTimeUtc must be a UTC time of day as HH:MM (00:00–23:59); got '6am'",
      'blockedUrlBaselineMultiplier must be a number from 1 to 1000; got 0.5',
      'archiveGzipLevel must be an integer from 1 to 9; got 10',
      "athena must be true or false; got 'yes'",
    ]);
  });

  it('lists problems of fields, unknown names and related settings in one error', () => {
    expect(
      issues({
        ...SETTINGS,
        gsmKeys: [5, 'AAAA-BBBB-CCCC-DDDD-EEEE', 'aaaa-bbbb-cccc-dddd-eeee'],
        tokenRefreshMinutes: 'x',
        webhookRateLimit: 50,
        webhookBurstLimit: 20,
        gsmKey: [],
      }),
    ).toEqual([
      'gsmKeys[0] must be a keycode like ABCD-EFGH-IJKL-MNOP-QRST; got 5',
      'gsmKeys[2] repeats AAAA-BBBB-CCCC-DDDD-EEEE',
      "tokenRefreshMinutes must be an integer from 1 to 60; got 'x'",
      expect.stringMatching(/^gsmKey is not a Skywatch setting/),
      'webhookBurstLimit must be at least webhookRateLimit (50); got 20',
    ]);
  });

  it('names one problem per setting, however many of its checks refuse the value', () => {
    expect(issues({ ...SETTINGS, blockedUrlMinCount: -1.5 })).toEqual([
      'blockedUrlMinCount must be an integer from 0 to 1000000000; got -1.5',
    ]);
  });

  it('reads an empty e-mail address as none and drops trailing slashes of URLs', () => {
    const resolved = resolveSettings({
      ...SETTINGS,
      baseUrl: 'https://api.skywatch.test/service//',
      alertEmail: '',
    });
    expect(resolved.alertEmail).toBeUndefined();
    expect(resolved.baseUrl).toBe('https://api.skywatch.test/service');
  });

  it('skips a relation whose own values were refused', () => {
    expect(issues({ ...SETTINGS, webhookRateLimit: 50, webhookBurstLimit: 0 })).toEqual([
      'webhookBurstLimit must be an integer from 1 to 5000; got 0',
    ]);
  });

  it('takes an outbreak threshold of one endpoint or more', () => {
    expect(
      resolveSettings({ ...SETTINGS, alertOutbreakThreshold: 15 }).alertOutbreakThreshold,
    ).toBe(15);
    expect(issues({ ...SETTINGS, alertOutbreakThreshold: 0 })).toEqual([
      'alertOutbreakThreshold must be an integer from 1 to 100000; got 0',
    ]);
    expect(issues({ ...SETTINGS, alertOutbreakThreshold: 2.5 })).toEqual([
      'alertOutbreakThreshold must be an integer from 1 to 100000; got 2.5',
    ]);
  });

  it('names the retired infection-alert settings as unknown instead of ignoring them', () => {
    expect(issues({ ...SETTINGS, infectionSummaryThreshold: 10, alertOnClean: false })).toEqual([
      expect.stringMatching(/^infectionSummaryThreshold is not a Skywatch setting/),
      expect.stringMatching(/^alertOnClean is not a Skywatch setting/),
    ]);
  });

  it('names a misspelt setting instead of ignoring it', () => {
    expect(issues({ ...SETTINGS, gsmKey: ['AAAA-BBBB-CCCC-DDDD-EEEE'] })[0]).toMatch(
      /^gsmKey is not a Skywatch setting \(known: baseUrl, authUrl, gsmKeys, /,
    );
  });
});

describe('settingsFromContext', () => {
  it('reads the skywatch object of cdk.json', () => {
    const app = new App({ context: cdkJsonContext() });
    expect(settingsFromContext(app.node)).toEqual(cdkJsonContext().skywatch);
  });

  it('lets -c skywatch:<name>=<value> override one setting, converting the text', () => {
    const app = new App({
      context: {
        ...cdkJsonContext(),
        'skywatch:gsmKeys': 'AAAA-BBBB-CCCC-DDDD-EEEE, FFFF-GGGG-HHHH-IIII-JJJJ',
        'skywatch:tokenRefreshMinutes': '3',
        'skywatch:athena': 'false',
        'skywatch:alertEmail': 'soc@example.com',
      },
    });
    expect(settingsFromContext(app.node)).toEqual(
      expect.objectContaining({
        gsmKeys: ['AAAA-BBBB-CCCC-DDDD-EEEE', 'FFFF-GGGG-HHHH-IIII-JJJJ'],
        tokenRefreshMinutes: 3,
        athena: false,
        alertEmail: 'soc@example.com',
      }),
    );
  });

  it("accepts the whole object as JSON text (-c skywatch='{…}')", () => {
    const app = new App({ context: { skywatch: JSON.stringify({ ...SETTINGS, athena: false }) } });
    expect(resolveSettings(settingsFromContext(app.node)).athena).toBe(false);
  });

  it('leaves text that is not a number for validation to name', () => {
    const app = new App({
      context: { skywatch: SETTINGS, 'skywatch:tokenRefreshMinutes': 'four' },
    });
    expect(issues(settingsFromContext(app.node))).toEqual([
      "tokenRefreshMinutes must be an integer from 1 to 60; got 'four'",
    ]);
  });
});

describe('SkywatchStack: settings at synth time', () => {
  it('fails the synth of the app with the setting named', () => {
    const app = new App({
      context: { ...cdkJsonContext(), 'skywatch:infectionAlertMinutes': '0' },
    });
    expect(() => createApp(app)).toThrow(
      /infectionAlertMinutes must be an integer from 1 to 1440; got 0/,
    );
  });

  it('fails a stack built from typed props too', () => {
    expect(
      () => new SkywatchStack(new App(), 'Skywatch', { settings: { ...SETTINGS, gsmKeys: [] } }),
    ).toThrow(SkywatchConfigError);
  });

  describe('placeholder URLs', () => {
    // Two full synths with cdk-nag, the first one cold: setup, not part of the assertion.
    let example: Annotations;
    let real: Annotations;
    beforeAll(() => {
      const annotations = (context: Record<string, unknown>) =>
        Annotations.fromStack(createApp(new App({ context })).stack);
      const noBundling = { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] };
      example = annotations(noBundling);
      real = annotations({ ...noBundling, skywatch: SETTINGS });
    });

    it('warns when the service URLs are still the example values of cdk.json', () => {
      example.hasWarning(
        '/Skywatch',
        Match.stringLikeRegexp(
          'skywatch.baseUrl is the example value https://skywatch.example/service',
        ),
      );
    });

    it('does not warn about real URLs', () => {
      real.hasNoWarning('/Skywatch', Match.stringLikeRegexp('example value'));
    });
  });
});
