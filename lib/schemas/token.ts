import * as z from 'zod';

/** Token response (5.2). `scope` is parsed separately: it comes in several renderings. */
export const TokenResponse = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().refine((t) => t.toLowerCase() === 'bearer', 'must be bearer'),
  expires_in: z.number().positive(),
  refresh_token: z.string().min(1).optional(),
  scope: z.union([z.string(), z.array(z.string())]).optional(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

/** RFC 6749 §5.2 error body. */
export const OAuthErrorBody = z.looseObject({
  error: z.string(),
  error_description: z.string().optional(),
});

/** RFC 9457 problem details (loose: every field optional). */
export const ProblemBody = z.looseObject({
  type: z.string().optional(),
  title: z.string().optional(),
  status: z.number().optional(),
  code: z.string().optional(),
  detail: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  traceId: z.string().optional(),
});
