/** Payloads of the client's events. URLs are redacted before they are emitted. */
export interface ClientEvents {
  request: { method: string; url: string; attempt: number };
  response: { method: string; url: string; status: number; attempt: number; durationMs: number };
  /** An attempt ended without an answer: a timeout or a network error. */
  requestFailed: {
    method: string;
    url: string;
    attempt: number;
    durationMs: number;
    reason: string;
  };
  retry: { method: string; url: string; attempt: number; delayMs: number; reason: string };
  tokenRenewal: {
    grant: 'password' | 'token_exchange' | 'refresh_token';
    reason: 'initial' | 'expiring' | 'invalidated';
  };
  /**
   * A refresh failed in a way the password grant cures (`error`: `invalid_grant`,
   * `invalid_request`, `invalid_scope`, `unreadable_response`), and that grant was used instead.
   */
  tokenFallback: { from: 'refresh_token'; to: 'password'; error: string; status?: number };
  /** The service granted fewer scopes than were asked for. */
  scopesReduced: { requested: string[]; granted: string[]; missing: string[] };
}

export type EventName = keyof ClientEvents;
export type Listener<K extends EventName> = (payload: ClientEvents[K]) => void;

/** Callbacks an application passes at construction, one per event. */
export interface ClientHooks {
  onRequest?: Listener<'request'>;
  onResponse?: Listener<'response'>;
  onRequestFailed?: Listener<'requestFailed'>;
  onRetry?: Listener<'retry'>;
  onTokenRenewal?: Listener<'tokenRenewal'>;
  onTokenFallback?: Listener<'tokenFallback'>;
  onScopesReduced?: Listener<'scopesReduced'>;
}

/**
 * A small typed emitter. A throwing listener is ignored: logging must never break a request.
 *
 * @example
 * const events = new ClientEmitter();
 * const off = events.on('retry', (e) => console.log(e.reason));
 */
export class ClientEmitter {
  private readonly listeners = new Map<EventName, Set<(payload: never) => void>>();

  constructor(hooks: ClientHooks = {}) {
    if (hooks.onRequest) this.on('request', hooks.onRequest);
    if (hooks.onResponse) this.on('response', hooks.onResponse);
    if (hooks.onRequestFailed) this.on('requestFailed', hooks.onRequestFailed);
    if (hooks.onRetry) this.on('retry', hooks.onRetry);
    if (hooks.onTokenRenewal) this.on('tokenRenewal', hooks.onTokenRenewal);
    if (hooks.onTokenFallback) this.on('tokenFallback', hooks.onTokenFallback);
    if (hooks.onScopesReduced) this.on('scopesReduced', hooks.onScopesReduced);
  }

  on<K extends EventName>(name: K, listener: Listener<K>): () => void {
    let set = this.listeners.get(name);
    if (!set) {
      set = new Set();
      this.listeners.set(name, set);
    }
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }

  emit<K extends EventName>(name: K, payload: ClientEvents[K]): void {
    for (const listener of this.listeners.get(name) ?? []) {
      try {
        (listener as Listener<K>)(payload);
      } catch {
        // A broken logger must not turn a good response into a failure.
      }
    }
  }
}
