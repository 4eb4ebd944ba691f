import type { Alert, AlertPublisher, StateStore } from '../../lib/aws/index.js';
import { cleanedAlert, infectionAlert, summaryAlert } from './alerts.js';
import { completeClaim, type HeldClaim, releaseClaim } from './claims.js';

export interface Delivered {
  infected: number;
  cleaned: number;
  alerts: number;
}

/** Endpoints a summary alert lists by name; the count covers them all. */
const SUMMARY_LISTED = 50;

/**
 * Sends the alerts the held claims owe, then completes each claim. A claim is completed only
 * after its alert was accepted by SNS; when publishing fails, the claims whose alert was not
 * sent are released for the next run. Claims whose lease has already run out are left alone:
 * from then on they belong to whichever run takes them over.
 */
export async function deliver(
  deps: { state: StateStore; alerts: AlertPublisher },
  gsm: string,
  held: HeldClaim[],
  settings: { summaryThreshold: number; now: () => number },
): Promise<Delivered> {
  const live = held.filter((h) => Date.parse(h.claim.leaseUntil) > settings.now());
  const infections = live.filter((h) => h.claim.alert === 'infection');
  const batches: { alert: Alert | undefined; claims: HeldClaim[] }[] = [
    { alert: undefined, claims: live.filter((h) => h.claim.alert === null) },
    ...(infections.length > settings.summaryThreshold
      ? [
          {
            alert: summaryAlert(
              gsm,
              infections.map((h) => h.claim.endpoint),
              SUMMARY_LISTED,
            ),
            claims: infections,
          },
        ]
      : infections.map((h) => ({ alert: infectionAlert(gsm, h.claim.endpoint), claims: [h] }))),
    ...live
      .filter((h) => h.claim.alert === 'infection-cleaned')
      .map((h) => ({ alert: cleanedAlert(gsm, h.claim.endpoint), claims: [h] })),
  ];

  const unsent = new Set(live);
  let alerts = 0;
  try {
    for (const batch of batches) {
      if (batch.claims.length === 0) continue;
      if (batch.alert) {
        await deps.alerts.publish(batch.alert);
        alerts++;
      }
      for (const claim of batch.claims) unsent.delete(claim);
      for (const claim of batch.claims) await completeClaim(deps.state, claim);
    }
  } catch (error) {
    // Sent but not completed: the lease decides (re-sending now would only duplicate).
    for (const claim of unsent) await releaseClaim(deps.state, claim, settings.now());
    throw error;
  }
  return {
    infected: infections.length,
    cleaned: live.filter((h) => !h.claim.record.infected).length,
    alerts,
  };
}
