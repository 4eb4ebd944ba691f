import { type AlertEventRow, alertEventRow } from '../../lib/alerts/index.js';
import type { AlertHistory } from '../../lib/aws/index.js';
import type { DrainedEntry } from './health/lifecycle.js';

/**
 * The history row of a drained transition: `trigger` or `resolve` when it was sent, `grouped`
 * when an outbreak took it (health/outbreak.ts), `muted` when anything else held it.
 */
export function drainedRow({ entry, sent, routing }: DrainedEntry, at: number): AlertEventRow {
  const event = sent ? entry.alert.action : entry.muted === 'outbreak' ? 'grouped' : 'muted';
  return alertEventRow(entry.alert, { at, event, route: routing?.route });
}

/** Collects one invocation's drained transitions, then writes them (one object per GSM). */
export class AlerterHistory {
  private rows: AlertEventRow[] = [];

  constructor(
    private readonly history: AlertHistory,
    private readonly now: () => number = Date.now,
  ) {}

  readonly onDrained = (drained: DrainedEntry): void => {
    this.rows.push(drainedRow(drained, this.now()));
  };

  /** Writes what was collected under run `run`; never throws (lib/aws/alert-history.ts). */
  async flush(run: string): Promise<void> {
    const rows = this.rows;
    this.rows = [];
    if (rows.length > 0) await this.history.write(run, rows, this.now());
  }
}
