import * as z from '../zod.js';

/**
 * The two secrets (docs/operations.md). The credentials secret is set by an operator; the token
 * secret is written only by the token refresher and read by every other function.
 */
const NonEmpty = z.string().check(z.minLength(1));

export const CredentialsSecretSchema = z.object({
  clientId: NonEmpty,
  clientSecret: NonEmpty,
  /** HTTP Basic (default, as the spec recommends) or body fields. */
  clientAuth: z._default(z.enum(['basic', 'body']), 'basic'),
  username: z.optional(NonEmpty),
  password: z.optional(NonEmpty),
  /** Token exchange instead of a password: a JWT from the organisation's identity provider. */
  subjectToken: z.optional(NonEmpty),
  /** Space-delimited scopes to ask for; defaults to every scope the functions need. */
  scope: z.optional(NonEmpty),
  /**
   * Standard Webhooks secret of the cart-customer webhook: `whsec_` + base64 of 24–64 random
   * bytes. Not checked here, whatever it holds (empty, the old hex form, not a string): only
   * the webhook reads it and checks it (functions/cart-customer-webhook/signature.ts), so a
   * bad one answers `503 not_configured` there and stops none of the other functions.
   */
  webhookSigningSecret: z.optional(z.unknown()),
  /** The secret being phased out during a rotation; accepted beside the current one. */
  webhookSigningSecretPrevious: z.optional(z.unknown()),
});
export type CredentialsSecret = z.infer<typeof CredentialsSecretSchema>;

export const TokenSecretSchema = z.object({
  accessToken: NonEmpty,
  refreshToken: NonEmpty,
  /** ISO instant the access token expires. */
  expiresAt: z.iso.datetime({ offset: true }),
  scopes: z.array(z.string()),
  /** ISO instant the pair was issued, for operators. */
  issuedAt: z.iso.datetime({ offset: true }),
});
export type TokenSecret = z.infer<typeof TokenSecretSchema>;
