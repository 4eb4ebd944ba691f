import { HttpError } from '../errors/errors.js';

/**
 * Whether `error` is the service refusing a saved continuation: a client error about the
 * request (400, as the emulator answers an expired one; 404 or 410 from a service that treats
 * the token as a gone resource). The real service's answer is not documented
 * (docs/service-choices.md). A walk given `onRefusedContinuation` that meets it on its first
 * page starts over; any other failure, or a 4xx on a fresh walk's first page, is a failure.
 *
 * @example
 * if (resumed && continuationRefused(error)) continuation = null;
 */
export function continuationRefused(error: unknown): boolean {
  return error instanceof HttpError && [400, 404, 410].includes(error.status);
}
