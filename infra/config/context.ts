import type { Node } from 'constructs';
import { DEFAULT_SETTINGS, SETTING_NAMES, type SkywatchSettings } from './settings.js';

/** CDK context key holding the settings object (cdk.json, cdk.context.json or `-c`). */
export const SETTINGS_CONTEXT_KEY = 'skywatch';
const OVERRIDE_PREFIX = `${SETTINGS_CONTEXT_KEY}:`;

const NUMERIC = new Set(
  Object.entries(DEFAULT_SETTINGS)
    .filter(([, value]) => typeof value === 'number')
    .map(([name]) => name),
);
const BOOLEAN = new Set(
  Object.entries(DEFAULT_SETTINGS)
    .filter(([, value]) => typeof value === 'boolean')
    .map(([name]) => name),
);

/**
 * Reads the settings from CDK context: the `skywatch` object, then one `skywatch:<name>`
 * key per setting overriding it (`cdk synth -c skywatch:gsmKeys=AAAA-…,BBBB-…`).
 * Values given on the command line arrive as strings and are converted here; whether they
 * are valid is decided by `resolveSettings`, which the stack calls.
 */
export function settingsFromContext(node: Node): SkywatchSettings {
  const base = node.tryGetContext(SETTINGS_CONTEXT_KEY) as unknown;
  const settings: Record<string, unknown> =
    base !== undefined && typeof base === 'object' && base !== null ? { ...base } : {};
  if (typeof base === 'string') {
    // `-c skywatch='{"gsmKeys":[…]}'` passes the object as JSON text.
    Object.assign(settings, parseJsonObject(base));
  }
  for (const name of SETTING_NAMES) {
    const override = node.tryGetContext(`${OVERRIDE_PREFIX}${name}`) as unknown;
    if (override !== undefined) settings[name] = override;
  }
  for (const [name, value] of Object.entries(settings)) {
    if (typeof value === 'string') settings[name] = fromString(name, value);
  }
  // Validation happens in the stack; this only shapes what the context holds.
  return settings as unknown as SkywatchSettings;
}

function fromString(name: string, value: string): unknown {
  const text = value.trim();
  if (name === 'gsmKeys') {
    return text === '' ? [] : text.split(',').map((key) => key.trim());
  }
  if (NUMERIC.has(name) && text !== '' && Number.isFinite(Number(text))) return Number(text);
  if (BOOLEAN.has(name) && (text === 'true' || text === 'false')) return text === 'true';
  return value;
}

function parseJsonObject(text: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return { [SETTINGS_CONTEXT_KEY]: text };
  }
}
