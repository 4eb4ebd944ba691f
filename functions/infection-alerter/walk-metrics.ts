import { MetricUnit, type Observability } from '../shared/observability.js';
import type { WalkReport } from './walk-state.js';

/**
 * Counts and logs a walk that went on from an earlier invocation or stopped for a later one,
 * with how far the whole walk has come, so an operator can follow a big console's first pass
 * or full check across invocations (docs/operations.md, "Big consoles").
 */
export function reportWalk(obs: Observability, gsm: string, walk: WalkReport | undefined): void {
  if (!walk) return;
  const progress = {
    gsm,
    walk: walk.kind,
    pages: walk.pages,
    examined: walk.examined,
    invocations: walk.ticks,
    restarted: walk.restarted,
  };
  if (walk.resumed) {
    obs.metrics.addMetric('WalksResumed', MetricUnit.Count, 1);
    obs.logger.info('walk resumed', progress);
  }
  if (walk.restarted)
    obs.logger.warn('walk restarted: the service refused its saved continuation', progress);
  if (walk.paused) {
    obs.metrics.addMetric('WalksPaused', MetricUnit.Count, 1);
    obs.logger.info('walk paused at the deadline; the next run goes on', progress);
  }
}
