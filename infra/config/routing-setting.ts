import * as z from 'zod';
import { DEFAULT_ROUTING, parseRouting, routingProblems } from '../../lib/alerts/routing.js';

/**
 * The `alertRouting` setting: a routing document, as an object or (from `-c
 * skywatch:alertRouting=…`) its JSON text, checked by the same schema the alerter reads it
 * with (lib/alerts/routing.ts). Each of its problems is an issue of its own, at its path under
 * `alertRouting`, so one synth lists them all. Absent, the default document.
 */
export const routingSetting = () =>
  z
    .unknown()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return DEFAULT_ROUTING;
      let document = value;
      if (typeof value === 'string') {
        try {
          document = JSON.parse(value);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: `is not JSON: ${(error as Error).message}` });
          return z.NEVER;
        }
      }
      const problems = routingProblems(document);
      for (const p of problems)
        ctx.addIssue({ code: 'custom', path: p.segments, message: p.message });
      return problems.length > 0 ? z.NEVER : parseRouting(document);
    });
