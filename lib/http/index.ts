export { type Clock, systemClock } from './clock.js';
export { type DeadlineOptions, resolveDeadline, waitWithin } from './deadline.js';
export {
  ClientEmitter,
  type ClientEvents,
  type ClientHooks,
  type EventName,
  type Listener,
} from './events.js';
export {
  backoffDelay,
  DEFAULT_RETRY,
  isConnectError,
  isRetryableStatus,
  parseRetryAfter,
  type RetryOptions,
  retryDelay,
} from './retry.js';
export {
  type HttpRequest,
  type HttpResponse,
  Transport,
  type TransportOptions,
} from './transport.js';
