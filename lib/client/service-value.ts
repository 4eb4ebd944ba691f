/**
 * The answer as the service sent it (its JSON value before the reader), kept beside the value
 * the reader delivers. The delivered value leaves out fields that broke the contract; an
 * archive should not, so it stores this instead. Held under a symbol that is not enumerable:
 * JSON, spreads and equality checks see only the delivered value.
 */
const SERVICE_VALUE = Symbol('skywatch.serviceValue');

/** Attaches the service's own value to a delivered one (objects only). */
export function keepServiceValue<T>(delivered: T, sent: unknown): T {
  if (delivered !== null && typeof delivered === 'object') {
    Object.defineProperty(delivered, SERVICE_VALUE, { value: sent, enumerable: false });
  }
  return delivered;
}

/**
 * What the service sent for an answer the client delivered (a report, a blocked-URL count),
 * broken and undocumented fields included; the delivered value itself when none was kept.
 *
 * @example
 * await store.writeRecords(key, [serviceValue(report)], meta);
 */
export function serviceValue(delivered: unknown): unknown {
  if (delivered === null || typeof delivered !== 'object') return delivered;
  return SERVICE_VALUE in delivered
    ? (delivered as Record<symbol, unknown>)[SERVICE_VALUE]
    : delivered;
}
