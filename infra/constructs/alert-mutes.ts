import type { Construct } from 'constructs';
import { NO_MUTES } from '../../lib/alerts/mutes.js';
import { DocumentParameter } from './document-parameter.js';

/**
 * The maintenance windows (docs/operations.md, "Maintenance windows"), beside the routing
 * document: written by `npm run alerts -- mute`, which removes ended windows on every write,
 * and read by the alerter with the routing document's cache. It starts with no window.
 */
export class AlertMutes extends DocumentParameter {
  constructor(scope: Construct, id: string) {
    super(scope, id, {
      name: 'alert-mutes',
      description:
        'Skywatch maintenance windows (docs/operations.md, "Maintenance windows"); edit with npm run alerts -- mute',
      document: NO_MUTES,
    });
  }
}
