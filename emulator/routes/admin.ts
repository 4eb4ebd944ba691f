import type { Control } from '../control.js';
import { jsonReply, type Reply } from '../http/respond.js';
import type { EndpointAction, FaultRule } from '../types.js';

/** Emulator-only admin API under /__admin (docs/emulator.md). Not part of the real service. */
export function admin(
  control: Control,
  adminUrl: string,
  method: string,
  url: URL,
  body: string,
): Reply {
  const path = url.pathname.slice('/__admin'.length);
  const input = (body ? JSON.parse(body) : {}) as Record<string, unknown>;
  const ok = (value: unknown = { ok: true }) => jsonReply(value);
  if (method === 'GET' && path === '/info') return ok(control.info(adminUrl));
  if (method === 'GET' && path === '/stats') return ok(control.stats());
  if (method === 'POST' && path === '/stats/reset') return ok(control.resetStats());
  if (method === 'POST' && path === '/clock')
    return ok({ now: control.advanceClock(Number(input.advanceSeconds ?? 0)) });
  if (method === 'POST' && path === '/tokens/revoke') return ok(control.revokeTokens());
  if (method === 'PUT' && path === '/faults')
    return ok(control.setFaults((input.faults ?? []) as FaultRule[]));
  if (method === 'DELETE' && path === '/faults') return ok(control.setFaults([]));
  if (method === 'POST' && path === '/blocked-urls') {
    return ok(
      control.addBlockedUrls(String(input.siteId), String(input.date), Number(input.count)),
    );
  }
  const listing = /^\/sites\/([^/]+)\/endpoints$/.exec(path);
  if (method === 'GET' && listing) {
    return ok(
      control.machineIds(
        decodeURIComponent(listing[1] ?? ''),
        Number(url.searchParams.get('limit') ?? 10),
      ),
    );
  }
  const enrolment = /^\/sites\/([^/]+)\/enrol$/.exec(path);
  if (method === 'POST' && enrolment) {
    return ok(control.enrol(decodeURIComponent(enrolment[1] ?? ''), Number(input.count ?? 1)));
  }
  const licence = /^\/sites\/([^/]+)\/licence$/.exec(path);
  if (method === 'POST' && licence) {
    return ok(control.setSiteLicence(decodeURIComponent(licence[1] ?? ''), Number(input.days)));
  }
  const action = /^\/endpoints\/([a-z-]+)$/.exec(path);
  if (method === 'POST' && action) {
    const threat = typeof input.threat === 'string' ? input.threat : undefined;
    return ok(control.endpointAction(String(input.machineId), action[1] as EndpointAction, threat));
  }
  return jsonReply({ error: `no admin operation ${method} ${path}` }, 404);
}
