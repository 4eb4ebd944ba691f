import * as z from '../zod.js';
import { DateTime, Int } from './common.js';
import type { Tolerant } from './tolerant.js';

export const DatedCount = z.lazy(() =>
  z.looseObject({
    /** The day, at 00:00:00 UTC. */
    Date: DateTime,
    Count: Int,
  }),
);

/** Blocked-URL counts (2.7); DatedCounts newest day first. */
export const GetBlockedURLsCountsResponse = z.lazy(() =>
  z.looseObject({
    IncludeDeactivated: z.boolean(),
    IncludeHidden: z.boolean(),
    StartDate: DateTime,
    EndDate: DateTime,
    DatedCounts: z.array(DatedCount),
  }),
);
/** As the tolerant reader delivers it: any field may be absent (lib/schemas/tolerant.ts). */
export type GetBlockedURLsCountsResponse = Tolerant<z.infer<typeof GetBlockedURLsCountsResponse>>;
