import { API_VERSION, jsonReply, type Reply } from '../http/respond.js';

/** The name the real service's version operation gives (real-service.md, health operations). */
export const SERVICE_NAME = 'Webroot.UnityAPI.APIServer';

const PING = '/service/api/health/ping';
const VERSION = '/service/api/health/version';

/** Whether a path is one of the unauthenticated health operations. */
export function isHealthPath(path: string): boolean {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === PING || trimmed === VERSION;
}

/**
 * `GET {base_url}/api/health/ping` and `/version`: no token, no scope, served whatever the
 * options, as the real service serves them to anyone.
 */
export function healthReply(path: string): Reply {
  if (path.replace(/\/+$/, '') === PING) return jsonReply('"OK"');
  return jsonReply({ Name: SERVICE_NAME, Version: API_VERSION });
}
