import type { ClientHooks } from '../../lib/http/index.js';

/** The part of an X-Ray subsegment a service call writes. */
export interface TraceSubsegment {
  addAttribute(name: string, data: unknown): void;
  addAnnotation(key: string, value: string | number | boolean): void;
  addErrorFlag(): void;
  addFaultFlag(): void;
  addThrottleFlag(): void;
  close(error?: string): void;
}

/** The part of Powertools' `Tracer` the service-call hooks use. */
export interface TracerLike {
  isTracingEnabled(): boolean;
  getSegment(): { addNewSubsegment(name: string): TraceSubsegment } | undefined;
}

/**
 * Hooks that make each attempt of a service call an X-Ray subsegment under the handler's,
 * shaped as the X-Ray SDK shapes an HTTP call (named by host, `remote`, with method, URL and
 * status) so the service appears on the trace map. The URL is the transport's redacted one.
 * The transport's own hooks are used rather than Tracer's fetch instrumentation: that one also
 * sends a trace header to the service and knows nothing of attempts.
 *
 * @example
 * new SkywatchClient({ ..., hooks: { ...serviceCallTracing(obs.tracing?.tracer), onRetry } });
 */
export function serviceCallTracing(tracer: TracerLike | undefined): ClientHooks {
  if (!tracer?.isTracingEnabled()) return {};
  // Attempts of one call follow each other, so method, URL and attempt name one in flight;
  // the list keeps two identical calls made concurrently apart.
  const open = new Map<string, TraceSubsegment[]>();
  const keyOf = (e: { method: string; url: string; attempt: number }) =>
    `${e.method} ${e.url} #${e.attempt}`;
  const take = (key: string) => {
    const list = open.get(key);
    const subsegment = list?.shift();
    if (list?.length === 0) open.delete(key);
    return subsegment;
  };
  return {
    onRequest: (e) => {
      const subsegment = tracer.getSegment()?.addNewSubsegment(hostOf(e.url));
      if (!subsegment) return;
      subsegment.addAttribute('namespace', 'remote');
      subsegment.addAttribute('http', { request: { method: e.method, url: e.url } });
      subsegment.addAnnotation('attempt', e.attempt);
      const key = keyOf(e);
      open.set(key, [...(open.get(key) ?? []), subsegment]);
    },
    onResponse: (e) => {
      const subsegment = take(keyOf(e));
      if (!subsegment) return;
      subsegment.addAttribute('http', {
        request: { method: e.method, url: e.url },
        response: { status: e.status },
      });
      if (e.status === 429) subsegment.addThrottleFlag();
      if (e.status >= 400 && e.status < 500) subsegment.addErrorFlag();
      if (e.status >= 500) subsegment.addFaultFlag();
      subsegment.close();
    },
    onRequestFailed: (e) => {
      const subsegment = take(keyOf(e));
      if (!subsegment) return;
      subsegment.addFaultFlag();
      subsegment.close(`${e.method} ${e.url}: ${e.reason}`);
    },
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return 'service';
  }
}
