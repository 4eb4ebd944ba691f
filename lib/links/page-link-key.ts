import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import type { SecretStore } from '../aws/secret-store.js';
import { registerSecret } from '../errors/index.js';
import * as z from '../zod.js';
import { type PageLinkSigner, type SignedPageLink, signPageLink } from './page-links.js';

/**
 * The secret holding the private key of the page links: `{"privateKey": "-----BEGIN PRIVATE
 * KEY-----…"}`, written at deploy by the stack's key resource (functions/page-link-key).
 */
export const PageLinkKeySecret = z.object({
  privateKey: z.string().check(z.regex(/^-----BEGIN (RSA )?PRIVATE KEY-----/)),
});

export interface PageLinkKeyPair {
  /** PKCS#8 PEM: the secret's value. */
  readonly privateKey: string;
  /** SPKI PEM, the form CloudFront's public keys take. */
  readonly publicKey: string;
}

/**
 * A new RSA 2048 key pair, the only kind CloudFront trusts for signed URLs.
 *
 * @example
 * const { privateKey, publicKey } = generatePageLinkKey();
 */
export function generatePageLinkKey(): PageLinkKeyPair {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}

/** The public key (SPKI PEM) of a private key, so a kept key can be named again. */
export function publicKeyOf(privateKey: string): string {
  return createPublicKey(createPrivateKey(privateKey))
    .export({ type: 'spki', format: 'pem' })
    .toString();
}

export interface PageLinkSettings extends Omit<PageLinkSigner, 'privateKey'> {
  /** ARN of the secret holding the private key. */
  readonly secretArn: string;
}

/**
 * Signs page links with the private key read from Secrets Manager (cached as the store
 * caches). The key is registered for redaction before it is used.
 *
 * @example
 * const link = pageLinkSigner(secrets, settings);
 * const { url } = await link(latestPageKey(gsm));
 */
export function pageLinkSigner(
  store: SecretStore,
  settings: PageLinkSettings,
): (key: string, now?: Date) => Promise<SignedPageLink> {
  return async (key, now) => {
    const { privateKey } = await store.read(settings.secretArn, PageLinkKeySecret);
    registerSecret(privateKey);
    return signPageLink(key, { ...settings, privateKey }, now);
  };
}
