import { ensureMotoPython } from '../../scripts/local/moto-python.js';

/**
 * Vitest global setup: runs once, before any worker, so that two workers never build the
 * moto virtualenv at the same time. On a machine without moto it installs it (and says so);
 * if that fails, the run stops here with one message instead of every AWS suite failing.
 */
export default function setup(): void {
  ensureMotoPython();
}
