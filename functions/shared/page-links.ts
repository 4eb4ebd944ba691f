import { ConfigError, type SecretStore } from '../../lib/aws/index.js';
import { pageLinkSigner } from '../../lib/links/page-link-key.js';
import type { PageLinker } from '../../lib/links/page-links.js';
import * as z from '../../lib/zod.js';
import { intSetting } from './env.js';
import { loggableError, MetricUnit, type Observability } from './observability.js';

const NonEmpty = z.string().check(z.minLength(1));

/**
 * The report site's links (the stack's `reportLinks` setting): where the distribution answers,
 * the id of the public key it trusts, the secret holding the private key, and how many days a
 * link works. All unset: no report site, and pages are named by their S3 location.
 */
export const PageLinkEnv = z.object({
  PAGE_LINK_ORIGIN: z.optional(z.url({ protocol: /^https$/ })),
  PAGE_LINK_KEY_PAIR_ID: z.optional(NonEmpty),
  PAGE_LINK_KEY_SECRET_ARN: z.optional(NonEmpty),
  PAGE_LINK_DAYS: intSetting({ min: 1, max: 90, default: 7 }),
});
type PageLinkEnvValues = z.infer<typeof PageLinkEnv>;

const REQUIRED = ['PAGE_LINK_ORIGIN', 'PAGE_LINK_KEY_PAIR_ID', 'PAGE_LINK_KEY_SECRET_ARN'] as const;

/**
 * Signs page links from the environment, or undefined when the report site is off. A link that
 * cannot be signed (the secret unreadable, say) is logged and counted, and the caller keeps
 * the S3 location: a digest or a built page is never lost for its link.
 */
export function pageLinker(
  env: PageLinkEnvValues,
  secrets: SecretStore,
  obs: Observability,
): PageLinker | undefined {
  if (REQUIRED.every((name) => env[name] === undefined)) return undefined;
  const missing = REQUIRED.find((name) => env[name] === undefined);
  if (missing) throw new ConfigError(missing, `is required with ${REQUIRED.join(', ')}`);
  const sign = pageLinkSigner(secrets, {
    origin: env.PAGE_LINK_ORIGIN ?? '',
    keyPairId: env.PAGE_LINK_KEY_PAIR_ID ?? '',
    secretArn: env.PAGE_LINK_KEY_SECRET_ARN ?? '',
    days: env.PAGE_LINK_DAYS,
  });
  return async (key) => {
    try {
      return await sign(key);
    } catch (error) {
      obs.logger.warn('page link not signed: the S3 location stands in', {
        key,
        error: loggableError(error),
      });
      obs.metrics.addMetric('PageLinkFailures', MetricUnit.Count, 1);
      return undefined;
    }
  };
}
