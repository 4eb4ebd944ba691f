import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { describe, expect, it, vi } from 'vitest';
import { readEnv } from '../../functions/shared/env.js';
import type { Observability } from '../../functions/shared/observability.js';
import { PageLinkEnv, pageLinker } from '../../functions/shared/page-links.js';
import { ConfigError } from '../../lib/aws/errors.js';
import { SecretStore } from '../../lib/aws/secret-store.js';
import { verifyPageLink } from '../../lib/links/page-link-check.js';
import { generatePageLinkKey } from '../../lib/links/page-link-key.js';

const keys = generatePageLinkKey();
const KEY = 'pages/daily/gsm=G/latest/report.html';
const ENV = {
  PAGE_LINK_ORIGIN: 'https://d111111abcdef8.cloudfront.net',
  PAGE_LINK_KEY_PAIR_ID: 'K2JCJMDEHXQW5F',
  PAGE_LINK_KEY_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:111122223333:secret:links',
};

const storeAnswering = (send: () => Promise<unknown>) =>
  new SecretStore({ send } as unknown as SecretsManagerClient);
const observed = () => {
  const warn = vi.fn();
  const addMetric = vi.fn();
  return {
    obs: { logger: { warn }, metrics: { addMetric } } as unknown as Observability,
    warn,
    addMetric,
  };
};

describe('Function: pageLinker (the report site from the environment)', () => {
  it('is off when no PAGE_LINK_ variable is set', () => {
    const env = readEnv(PageLinkEnv, {});
    expect(env.PAGE_LINK_DAYS).toBe(7);
    expect(pageLinker(env, storeAnswering(vi.fn()), observed().obs)).toBeUndefined();
  });

  it('fails the cold start naming the variable missing from a partial set', () => {
    const { PAGE_LINK_KEY_PAIR_ID: _id, ...partial } = ENV;
    const env = readEnv(PageLinkEnv, partial);
    expect(() => pageLinker(env, storeAnswering(vi.fn()), observed().obs)).toThrow(ConfigError);
    expect(() => pageLinker(env, storeAnswering(vi.fn()), observed().obs)).toThrow(
      /PAGE_LINK_KEY_PAIR_ID is required/,
    );
  });

  it('refuses an origin that is not https', () => {
    expect(() =>
      readEnv(PageLinkEnv, { ...ENV, PAGE_LINK_ORIGIN: 'http://d1.cloudfront.net' }),
    ).toThrow(/PAGE_LINK_ORIGIN/);
  });

  it('signs for the configured days with the key from the secret', async () => {
    const env = readEnv(PageLinkEnv, { ...ENV, PAGE_LINK_DAYS: '3' });
    const store = storeAnswering(async () => ({
      SecretString: JSON.stringify({ privateKey: keys.privateKey }),
    }));
    const link = await pageLinker(env, store, observed().obs)?.(KEY);
    const checked = verifyPageLink(link?.url ?? '', {
      keyPairId: ENV.PAGE_LINK_KEY_PAIR_ID,
      publicKey: keys.publicKey,
    });
    expect(checked.key).toBe(KEY);
    const days = (Date.parse(checked.expiresAt) - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(3);
  });

  it('answers no link, logged and counted, when the secret cannot be read', async () => {
    const env = readEnv(PageLinkEnv, ENV);
    const { obs, warn, addMetric } = observed();
    const store = storeAnswering(async () => {
      throw Object.assign(new Error('denied'), { name: 'AccessDeniedException' });
    });
    expect(await pageLinker(env, store, obs)?.(KEY)).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(
      'page link not signed: the S3 location stands in',
      expect.objectContaining({
        key: KEY,
        error: expect.objectContaining({ name: 'SecretError' }),
      }),
    );
    expect(addMetric).toHaveBeenCalledWith('PageLinkFailures', 'Count', 1);
  });
});
