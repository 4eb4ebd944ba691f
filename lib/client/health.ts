import { parseResponse } from '../schemas/common.js';
import * as z from '../zod.js';
import type { CallOptions, ClientContext } from './context.js';
import { buildUrl } from './execute.js';
import { errorFromResponse } from './response-errors.js';

/**
 * What `GET {base_url}/api/health/version` answers: a ServiceInformation whose `Name` is
 * `Webroot.UnityAPI.APIServer` on the real service. Loose: only the name and version are read.
 */
export const ServiceInformation = z.looseObject({
  Name: z.optional(z.nullable(z.string())),
  Version: z.optional(z.nullable(z.string())),
});
export type ServiceInformation = z.infer<typeof ServiceInformation>;

/** The answer of a health operation, with what the connection check needs. */
export interface HealthAnswer<T> {
  value: T;
  /** The service's clock from its `Date` header (epoch ms), when it sent a readable one. */
  serviceTime: number | undefined;
  /** The client's clock half-way through the call: compare with `serviceTime` for skew. */
  localTime: number;
  roundTripMs: number;
}

async function healthGet<T>(
  ctx: ClientContext,
  path: string,
  read: (text: string) => T,
  call: CallOptions = {},
): Promise<HealthAnswer<T>> {
  const url = buildUrl(ctx.baseUrl, path);
  const started = ctx.transport.clock.now();
  // Unauthenticated: no token is obtained, so a health check works before credentials do.
  const res = await ctx.transport.send({
    method: 'GET',
    url,
    headers: { accept: 'application/json' },
    ...(call.deadline === undefined ? {} : { deadline: { deadline: call.deadline } }),
  });
  const ended = ctx.transport.clock.now();
  if (res.status < 200 || res.status >= 300) throw errorFromResponse(res, 'GET', url);
  const date = Date.parse(res.headers.get('date') ?? '');
  return {
    value: read(res.text),
    serviceTime: Number.isNaN(date) ? undefined : date,
    localTime: started + (ended - started) / 2,
    roundTripMs: ended - started,
  };
}

/**
 * `GET {base_url}/api/health/ping`: any 2xx answer is a live service; the body is not read.
 *
 * @example
 * const { roundTripMs } = await ping(ctx);
 */
export function ping(ctx: ClientContext, call?: CallOptions): Promise<HealthAnswer<undefined>> {
  return healthGet(ctx, '/api/health/ping', () => undefined, call);
}

/**
 * `GET {base_url}/api/health/version`: the service's name and version.
 *
 * @example
 * const { value } = await serviceVersion(ctx); // value.Name === 'Webroot.UnityAPI.APIServer'
 */
export function serviceVersion(
  ctx: ClientContext,
  call?: CallOptions,
): Promise<HealthAnswer<ServiceInformation>> {
  return healthGet(
    ctx,
    '/api/health/version',
    (text) => {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return parseResponse(ServiceInformation, json, 'ServiceInformation');
    },
    call,
  );
}
