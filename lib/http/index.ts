export {
  AdaptiveLimiter,
  type AdaptiveLimiterOptions,
  type LimitChangeReason,
  type LimiterStats,
} from './adaptive-limiter.js';
export { type Clock, systemClock } from './clock.js';
export { type DeadlineOptions, resolveDeadline, waitWithin } from './deadline.js';
export {
  ClientEmitter,
  type ClientEvents,
  type ClientHooks,
  type EventName,
  type Listener,
} from './events.js';
export { LatencyTrend } from './latency-trend.js';
export { type LimiterState, LimiterStateSchema, readLimiterState } from './limiter-state.js';
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
