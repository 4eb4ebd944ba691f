import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthError,
  ClientEmitter,
  type ClientEvents,
  TokenManager,
  type TokenManagerOptions,
  type TokenSet,
  Transport,
} from '../../lib/index.js';
import {
  closeLocalServers,
  fakeClock,
  json,
  localServer,
  type Seen,
} from './support/local-server.js';

afterEach(closeLocalServers);

type RefreshAnswer = (res: Parameters<typeof json>[0]) => void;

/** A token endpoint whose refresh grant answers as told; other grants succeed. */
async function tokenServer(refreshAnswer?: RefreshAnswer, granted = 'SkyStatus.GSM') {
  let n = 0;
  return localServer(async (req: Seen, res) => {
    const form = new URLSearchParams(req.body);
    if (form.get('grant_type') === 'refresh_token' && refreshAnswer) {
      refreshAnswer(res);
      return;
    }
    n++;
    json(res, 200, {
      access_token: `access-${n}-xxxxxxxx`,
      token_type: 'bearer',
      expires_in: 299,
      refresh_token: `refresh-${n}-xxxxxxxx`,
      scope: granted,
    });
  });
}

function manager(url: string, extra: Partial<TokenManagerOptions> = {}) {
  const events = new ClientEmitter();
  const fallbacks: ClientEvents['tokenFallback'][] = [];
  events.on('tokenFallback', (e) => fallbacks.push(e));
  const fc = fakeClock();
  const transport = new Transport({ userAgent: 'test/1.0', clock: fc.clock, events });
  const m = new TokenManager(transport, {
    tokenUrl: `${url}/auth/token`,
    clientId: 'app',
    clientSecret: 'client-secret-for-unit',
    username: 'ops@example.com',
    password: 'user-password-for-unit',
    scopes: ['SkyStatus.GSM', 'SkyStatus.Reporting'],
    ...extra,
  });
  return { m, fallbacks, fc };
}

const form = (seen: Seen | undefined) => Object.fromEntries(new URLSearchParams(seen?.body));

describe('Class: TokenManager (scope on every grant)', () => {
  it('sends the scopes last granted on a refresh', async () => {
    const server = await tokenServer();
    const { m } = manager(server.url);
    const first = await m.getToken();
    m.invalidate(first.value);
    await m.getToken();
    expect(form(server.seen[1])).toMatchObject({
      grant_type: 'refresh_token',
      refresh_token: 'refresh-1-xxxxxxxx',
      scope: 'SkyStatus.GSM',
    });
  });

  it('sends a wildcard configuration as configured', async () => {
    const server = await tokenServer();
    const { m } = manager(server.url, { scopes: ['*'], refreshToken: 'saved-refresh-token-1' });
    await m.getToken();
    expect(form(server.seen[0])).toMatchObject({ grant_type: 'refresh_token', scope: '*' });
  });

  it('starts from the scopes saved beside the refresh token, else the configured ones', async () => {
    const server = await tokenServer();
    await manager(server.url, {
      refreshToken: 'saved-refresh-token-1',
      refreshTokenScopes: ['SkyStatus.Reporting'],
    }).m.getToken();
    await manager(server.url, { refreshToken: 'saved-refresh-token-2' }).m.getToken();
    expect(server.seen.map((s) => form(s).scope)).toEqual([
      'SkyStatus.Reporting',
      'SkyStatus.GSM SkyStatus.Reporting',
    ]);
  });
});

describe('Class: TokenManager (password fallback)', () => {
  const curable: Array<[string, RefreshAnswer, string]> = [
    ['invalid_grant', (r) => json(r, 400, { error: 'invalid_grant' }), 'invalid_grant'],
    [
      'invalid_request (refresh without scope)',
      (r) => json(r, 400, { error: 'invalid_request', error_description: 'scope is required' }),
      'invalid_request',
    ],
    ['invalid_scope', (r) => json(r, 400, { error: 'invalid_scope' }), 'invalid_scope'],
    [
      'a 400 HTML page',
      (r) => {
        r.writeHead(400, { 'content-type': 'text/html' });
        r.end('<html><body>Bad Request</body></html>');
      },
      'unreadable_response',
    ],
    [
      'a 200 that is not JSON',
      (r) => {
        r.writeHead(200, { 'content-type': 'application/json' });
        r.end('{"access_token":');
      },
      'unreadable_response',
    ],
  ];

  for (const [name, answer, code] of curable) {
    it(`falls back after ${name}, persists the new pair before use, and says so`, async () => {
      const server = await tokenServer(answer);
      const persisted: TokenSet[] = [];
      const { m, fallbacks } = manager(server.url, {
        refreshToken: 'saved-refresh-token',
        onTokens: (t) => {
          persisted.push(t);
        },
      });
      const token = await m.getToken();
      expect(token.value).toBe('access-1-xxxxxxxx');
      expect(persisted.map((p) => p.accessToken)).toEqual(['access-1-xxxxxxxx']);
      expect(fallbacks).toHaveLength(1);
      expect(fallbacks[0]).toMatchObject({ from: 'refresh_token', to: 'password', error: code });
      expect(server.seen.map((s) => form(s).grant_type)).toEqual(['refresh_token', 'password']);
      expect(m.currentRefreshToken()).toBe('refresh-1-xxxxxxxx');
    });
  }

  const incurable: Array<[string, RefreshAnswer, string]> = [
    ['invalid_client', (r) => json(r, 401, { error: 'invalid_client' }), 'invalid_client'],
    [
      'a 503 page',
      (r) => {
        r.writeHead(503, { 'content-type': 'text/html' });
        r.end('<html>down</html>');
      },
      'server_error',
    ],
    [
      'a gateway 429 with a problem body',
      (r) => json(r, 429, { status: 429, code: 'rate_limited', detail: 'injected fault' }),
      'server_error',
    ],
  ];
  for (const [name, answer, code] of incurable) {
    it(`raises ${name} without trying the password grant`, async () => {
      const server = await tokenServer(answer);
      const { m, fallbacks } = manager(server.url, { refreshToken: 'saved-refresh-token' });
      const error = await m.getToken().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthError);
      expect((error as AuthError).code).toBe(code);
      expect(fallbacks).toEqual([]);
      expect(server.seen).toHaveLength(1);
    });
  }

  it('raises the refresh failure when no password is configured', async () => {
    const server = await tokenServer((r) => json(r, 400, { error: 'invalid_request' }));
    const { m } = manager(server.url, { refreshToken: 'saved', password: undefined });
    await expect(m.getToken()).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('names an HTML refusal of the token endpoint for what it is', async () => {
    const server = await tokenServer((r) => {
      r.writeHead(400, { 'content-type': 'text/html' });
      r.end('<!DOCTYPE html><html></html>');
    });
    const { m } = manager(server.url, { refreshToken: 'saved', password: undefined });
    await expect(m.getToken()).rejects.toThrow(/HTTP 400: unreadable_response \(an HTML page/);
  });
});
