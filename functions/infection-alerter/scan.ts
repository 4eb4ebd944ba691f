import type { AlertPublisher, StateStore } from '../../lib/aws/index.js';
import type { SkywatchClient } from '../../lib/index.js';
import { cleanedAlert, type Detected, infectionAlert, summaryAlert } from './alerts.js';
import { readInfection } from './infection-state.js';
import { Cursor, cursorKey, EndpointRecord, endpointKey, transition, undo } from './records.js';

export interface ScanSettings {
  summaryThreshold: number;
  alertOnClean: boolean;
  /** Re-read this much before the newest change seen, so nothing changed mid-walk is missed. */
  overlapMs: number;
  now?: () => number;
}

export interface ScanOutcome {
  gsm: string;
  examined: number;
  infected: number;
  cleaned: number;
  alerts: number;
  modifiedSince: string | null;
}

/**
 * One pass over the endpoints of a GSM changed since the cursor (4.3 with modifiedSince and only
 * the two groups needed). Each infection is claimed by a conditional write before it is alerted,
 * so it is alerted once however runs overlap; the cursor only moves forward.
 */
export async function scanGsm(
  deps: { client: SkywatchClient; state: StateStore; alerts: AlertPublisher },
  gsm: string,
  settings: ScanSettings,
): Promise<ScanOutcome> {
  const now = settings.now ?? Date.now;
  const started = now();
  const cursor = await deps.state.get(cursorKey(gsm), Cursor);
  const since = cursor?.value.modifiedSince;
  let newest = since ?? '';
  let examined = 0;
  const infected: Detected[] = [];
  const cleaned: Detected[] = [];
  const paginator = deps.client.gsmAgentStatus(gsm, {
    returnedInfo: ['BasicInfo', 'ExtendedInfo'],
    batchSize: 1000,
    prefetch: true,
    ...(since ? { modifiedSince: since } : {}),
  });
  const previous = new Map<string, EndpointRecord | undefined>();
  for await (const entry of paginator.entries()) {
    examined++;
    if (entry.LastChanged > newest) newest = entry.LastChanged;
    const reading = readInfection(entry);
    const key = endpointKey(gsm, entry.MachineID);
    // On the first pass no endpoint has a record yet, so clean ones need no state call at all.
    if (!reading.infected && !since) continue;
    const current = await deps.state.get(key, EndpointRecord);
    const record = {
      infected: reading.infected,
      threat: reading.threat,
      changedAt: entry.LastChanged,
    };
    if (!(await transition(deps.state, key, current, record))) continue;
    previous.set(key, current?.value);
    (reading.infected ? infected : cleaned).push({ entry, reading });
  }

  const toSend = [
    ...(infected.length > settings.summaryThreshold
      ? [summaryAlert(gsm, infected, 50)]
      : infected.map((d) => infectionAlert(gsm, d))),
    ...(settings.alertOnClean ? cleaned.map((d) => cleanedAlert(gsm, d)) : []),
  ];
  try {
    for (const alert of toSend) await deps.alerts.publish(alert);
  } catch (error) {
    // Unclaim, so the next run sees these transitions again and alerts them.
    for (const [key, before] of previous) await undo(deps.state, key, before);
    throw error;
  }

  const walkMs = now() - started;
  const next = newest
    ? new Date(Date.parse(newest) - settings.overlapMs - walkMs).toISOString()
    : since;
  if (next && next !== since && (!since || next > since)) {
    try {
      await deps.state.put(
        cursorKey(gsm),
        { modifiedSince: next },
        cursor ? { ifMatch: cursor.etag } : { ifNoneMatch: true },
      );
    } catch (error) {
      // An overlapping run moved the cursor first; its position is as good as ours.
      if ((error as Error).name !== 'ConflictError') throw error;
    }
  }
  return {
    gsm,
    examined,
    infected: infected.length,
    cleaned: cleaned.length,
    alerts: toSend.length,
    modifiedSince: next ?? null,
  };
}
