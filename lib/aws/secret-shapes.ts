import * as z from 'zod';

/**
 * The two secrets (docs/operations.md). The credentials secret is set by an operator; the token
 * secret is written only by the token refresher and read by every other function.
 */
export const CredentialsSecretSchema = z.object({
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  /** HTTP Basic (default, as the spec recommends) or body fields. */
  clientAuth: z.enum(['basic', 'body']).default('basic'),
  username: z.string().min(1).optional(),
  password: z.string().min(1).optional(),
  /** Token exchange instead of a password: a JWT from the organisation's identity provider. */
  subjectToken: z.string().min(1).optional(),
  /** Space-delimited scopes to ask for; defaults to every scope the functions need. */
  scope: z.string().min(1).optional(),
  /** HMAC key of the cart-customer webhook. */
  webhookSigningSecret: z.string().min(16).optional(),
});
export type CredentialsSecret = z.infer<typeof CredentialsSecretSchema>;

export const TokenSecretSchema = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
  /** ISO instant the access token expires. */
  expiresAt: z.iso.datetime({ offset: true }),
  scopes: z.array(z.string()),
  /** ISO instant the pair was issued, for operators. */
  issuedAt: z.iso.datetime({ offset: true }),
});
export type TokenSecret = z.infer<typeof TokenSecretSchema>;
