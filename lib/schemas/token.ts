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
