import * as z from '../zod.js';

/** Token response (5.2). `scope` is parsed separately: it comes in several renderings. */
export const TokenResponse = z.lazy(() =>
  z.looseObject({
    access_token: z.string().check(z.minLength(1)),
    token_type: z.string().check(z.refine((t) => t.toLowerCase() === 'bearer', 'must be bearer')),
    expires_in: z.number().check(z.positive()),
    refresh_token: z.optional(z.string().check(z.minLength(1))),
    scope: z.optional(z.union([z.string(), z.array(z.string())])),
  }),
);
export type TokenResponse = z.infer<typeof TokenResponse>;

/** RFC 6749 §5.2 error body. */
export const OAuthErrorBody = z.lazy(() =>
  z.looseObject({
    error: z.string(),
    error_description: z.optional(z.string()),
  }),
);

/** RFC 9457 problem details (loose: every field optional). */
export const ProblemBody = z.lazy(() =>
  z.looseObject({
    type: z.optional(z.string()),
    title: z.optional(z.string()),
    status: z.optional(z.number()),
    code: z.optional(z.string()),
    detail: z.optional(z.string()),
    errors: z.optional(z.record(z.string(), z.array(z.string()))),
    traceId: z.optional(z.string()),
  }),
);
