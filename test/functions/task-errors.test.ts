import { describe, expect, it } from 'vitest';
import { taskRetryDelay, transient } from '../../functions/report-fetcher/tasks.js';
import { StorageError } from '../../lib/aws/index.js';
import { isRetryableStatus } from '../../lib/http/index.js';
import {
  AuthError,
  HttpError,
  NetworkError,
  RateLimitError,
  SchemaError,
  TimeoutError,
} from '../../lib/index.js';

const url = 'https://service.example/service/api/report';
const answered = (status: number) => new HttpError(status, 'GET', url, undefined);

describe('Function: transient', () => {
  it('retries a task on exactly the statuses the retry policy retries', () => {
    for (let status = 400; status < 600; status++)
      expect(transient(answered(status)), `HTTP ${status}`).toBe(isRetryableStatus(status));
    // The old rule retried every 5xx: a 501 will not be implemented by trying again.
    expect(transient(answered(501))).toBe(false);
    expect(transient(new RateLimitError('GET', url, undefined, undefined))).toBe(true);
  });

  it('retries timeouts, broken connections and S3 failures, nothing else', () => {
    expect(transient(new TimeoutError('slow', 'attempt'))).toBe(true);
    expect(transient(new NetworkError('reset', false))).toBe(true);
    expect(transient(new StorageError('S3 answered 503'))).toBe(true);
    expect(transient(new SchemaError('bad', 'QueryResults[0]'))).toBe(false);
    expect(transient(new AuthError('refused', 'invalid_grant', { status: 503 }))).toBe(false);
    expect(transient(new Error('HTTP 503'))).toBe(false);
    expect(transient(Object.assign(new Error('x'), { status: 503 }))).toBe(false);
  });
});

describe('Function: taskRetryDelay', () => {
  const timeout = new TimeoutError('slow', 'attempt');

  it('waits with full jitter under a ceiling that doubles per failed attempt', () => {
    const options = { baseMs: 100, maxMs: 1000 };
    expect(taskRetryDelay(1, timeout, { ...options, random: () => 0 })).toBe(0);
    expect(taskRetryDelay(1, timeout, { ...options, random: () => 0.999 })).toBe(99);
    expect(taskRetryDelay(3, timeout, { ...options, random: () => 0.5 })).toBe(200);
    expect(taskRetryDelay(9, timeout, { ...options, random: () => 0.999 })).toBe(999);
  });

  it("honours the service's Retry-After", () => {
    const throttled = new RateLimitError('GET', url, undefined, 7000);
    expect(taskRetryDelay(1, throttled, { random: () => 0 })).toBe(7000);
  });

  it('gives a throttled service more room than a timeout', () => {
    const throttled = new RateLimitError('GET', url, undefined, undefined);
    const options = { baseMs: 250, maxMs: 30_000, random: () => 0.999 };
    expect(taskRetryDelay(1, throttled, options)).toBe(999);
    expect(taskRetryDelay(1, timeout, options)).toBe(249);
  });

  it('stays under the largest ceiling however many attempts failed', () => {
    for (let attempts = 1; attempts <= 1000; attempts += 37)
      expect(taskRetryDelay(attempts, timeout, { random: () => 0.999 })).toBeLessThan(30_000);
  });
});
