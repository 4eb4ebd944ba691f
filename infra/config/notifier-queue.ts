/**
 * The notifier's queue as deployed, in plain numbers so that the local run and the tests build
 * the same queue without loading the CDK.
 */
export const NOTIFIER_QUEUE = {
  /**
   * The notifier's timeout: a batch's deliveries run in parallel, each with its quick retries
   * (three attempts of at most 5 s, 5 s apart), so a whole batch fits well within it.
   */
  timeoutSeconds: 120,
  /** Six times the timeout (Lambda's advice for SQS sources): only a cut invocation waits it. */
  visibilitySeconds: 720,
  /**
   * Receives of one delivery before SQS moves it to the dead-letter queue: with the notifier's
   * back-off (30 s doubling to 15 min) about two hours of trying, what PagerDuty asks of a
   * sender during an outage of its own ("retry over minutes").
   */
  maxReceiveCount: 12,
} as const;
