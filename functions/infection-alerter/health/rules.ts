import { HealthKind, Severity } from '../../../lib/alerts/index.js';
import type { StateStore } from '../../../lib/aws/index.js';
import { SkywatchError } from '../../../lib/errors/index.js';
import * as z from '../../../lib/zod.js';

/** EnabledFeatures switches the protection-off kind can watch (spec 2.2). */
export const SHIELDS = [
  'ProtectionEnabled',
  'RootkitShieldEnabled',
  'WebThreatShieldEnabled',
  'USBShieldEnabled',
  'OfflineShieldEnabled',
  'FirewallEnabled',
  'InfraredEnabled',
  'IDShieldEnabled',
  'PhishingShieldEnabled',
] as const;

const KindSetting = z.object({
  enabled: z.optional(z.boolean()),
  severity: z.optional(Severity),
  /** offline: days without LastSeen; licence-expiring: DaysRemaining at most this. */
  days: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(3650))),
  /** protection-off: the switches that count; any one false triggers. */
  shields: z.optional(z.array(z.enum(SHIELDS)).check(z.minLength(1))),
});
const KindSettings = z.partialRecord(HealthKind, KindSetting);

/**
 * The one place health alerts are switched and tuned (docs/operations.md): defaults, then per
 * GSM, then per site, each level overriding only what it names.
 */
export const AlertRules = z.object({
  kinds: z.optional(KindSettings),
  gsms: z.optional(
    z.record(
      z.string(),
      z.object({
        kinds: z.optional(KindSettings),
        sites: z.optional(z.record(z.string(), z.object({ kinds: z.optional(KindSettings) }))),
      }),
    ),
  ),
});
export type AlertRules = z.infer<typeof AlertRules>;

export interface KindRule {
  enabled: boolean;
  severity: Severity;
  days: number;
  shields: readonly (typeof SHIELDS)[number][];
}

export const DEFAULT_RULES: Record<HealthKind, KindRule> = {
  infected: { enabled: true, severity: 'critical', days: 0, shields: [] },
  'protection-off': { enabled: true, severity: 'high', days: 0, shields: ['ProtectionEnabled'] },
  offline: { enabled: true, severity: 'medium', days: 7, shields: [] },
  'licence-expiring': { enabled: true, severity: 'low', days: 30, shields: [] },
  'licence-expired': { enabled: true, severity: 'high', days: 0, shields: [] },
  uninstalled: { enabled: true, severity: 'medium', days: 0, shields: [] },
  'other-antivirus': { enabled: true, severity: 'medium', days: 0, shields: [] },
  'attention-required': { enabled: true, severity: 'low', days: 0, shields: [] },
};

/** The rules object in S3 is not what docs/operations.md describes. */
export class AlertRulesError extends SkywatchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AlertRulesError';
  }
}

/** The rule for one kind at one site of one GSM. */
export function ruleFor(rules: AlertRules, gsm: string, site: string, kind: HealthKind): KindRule {
  const g = rules.gsms?.[gsm];
  return {
    ...DEFAULT_RULES[kind],
    ...rules.kinds?.[kind],
    ...g?.kinds?.[kind],
    ...g?.sites?.[site]?.kinds?.[kind],
  };
}

/** Reads the rules object (absent: the defaults). A bad one fails the run with its path. */
export async function loadRules(state: StateStore, key: string): Promise<AlertRules> {
  try {
    return (await state.get(key, AlertRules))?.value ?? {};
  } catch (error) {
    const cause = error instanceof Error ? error.cause : undefined;
    const issue = cause instanceof z.core.$ZodError ? cause.issues[0] : undefined;
    // Not a bad object but a failed read: the caller's retry is what helps.
    if (!issue) throw error;
    const where = `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`;
    throw new AlertRulesError(`The alert rules in state/${key} are invalid at ${where}`, {
      cause: error,
    });
  }
}
