import type { Logger } from '@aws-lambda-powertools/logger';
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { SurpriseEvent } from '../../lib/index.js';

/** Log lines per field path and rule in one container: enough to see it, never a flood. */
const LOG_SAMPLES = 3;

/**
 * Where every function turns the client's surprises (lib/schemas/tolerant.ts) into a metric and
 * log lines: counted by model, field path and rule during an invocation and emitted once at its
 * end as `ServiceSurprises` (dimensions Model, Path, Rule); the first few of each path and rule
 * are logged, with the path and the rule and never the value. A `needed` surprise is an entry a
 * function skipped for want of a field it needs.
 */
export class SurpriseCounter {
  private readonly counts = new Map<string, { event: SurpriseEvent; count: number }>();
  private readonly logged = new Map<string, number>();

  constructor(private readonly obs: { logger: Logger; metrics: Metrics }) {}

  /** The client's `onSurprise`. */
  readonly record = (event: SurpriseEvent): void => {
    const key = `${event.model}\u0000${event.path}\u0000${event.rule}`;
    const seen = this.counts.get(key);
    if (seen) seen.count++;
    else this.counts.set(key, { event, count: 1 });
    const logged = this.logged.get(key) ?? 0;
    if (logged < LOG_SAMPLES) {
      this.logged.set(key, logged + 1);
      this.obs.logger.warn(
        event.rule === 'needed'
          ? 'skipped an entry without a field this function needs'
          : 'a service answer broke the contract; read around it',
        { surprise: { model: event.model, at: event.at, path: event.path, rule: event.rule } },
      );
    }
  };

  /** Emits this invocation's counts, one metric per model, path and rule, and starts afresh. */
  flush(): void {
    for (const { event, count } of this.counts.values()) {
      const metric = this.obs.metrics.singleMetric();
      metric.addDimensions({ Model: event.model, Path: event.path, Rule: event.rule });
      metric.addMetric(
        event.rule === 'needed' ? 'EntriesSkipped' : 'ServiceSurprises',
        MetricUnit.Count,
        count,
      );
    }
    this.counts.clear();
  }

  /** Counts so far in this invocation, by `model path rule` (for tests and outcomes). */
  snapshot(): Record<string, number> {
    return Object.fromEntries(
      [...this.counts.values()].map(({ event, count }) => [
        `${event.model} ${event.path} ${event.rule}`,
        count,
      ]),
    );
  }
}
