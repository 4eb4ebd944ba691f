import { GetParameterCommand, PutParameterCommand, type SSMClient } from '@aws-sdk/client-ssm';
import {
  type MaintenanceWindow,
  MutesDocument,
  MutesDocumentError,
  mutesProblems,
  NO_MUTES,
  parseMutesText,
} from '../../lib/alerts/index.js';
import { SkywatchError } from '../../lib/errors/index.js';
import * as z from '../../lib/zod.js';

/**
 * Where `mute`, `unmute` and `mutes` read and write the maintenance windows: the SSM parameter
 * the alerter reads (stack output AlertMutesParameter). Unlike the alerter, which holds nothing
 * when the document is bad, a command says what is wrong and writes nothing.
 */
export class MutesParameterError extends SkywatchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MutesParameterError';
  }
}

/** The parameter's name: `--parameter`, or ALERT_MUTES_PARAMETER. */
export function mutesParameterName(given: string | undefined, env: NodeJS.ProcessEnv) {
  const name = (given ?? env.ALERT_MUTES_PARAMETER)?.trim();
  if (!name)
    throw new MutesParameterError(
      'no parameter: give --parameter, or set ALERT_MUTES_PARAMETER (the stack output AlertMutesParameter)',
    );
  return name;
}

/** The windows in the parameter, read now; a parameter not there yet holds none. */
export async function readMutes(ssm: SSMClient, name: string): Promise<MutesDocument> {
  let text: string;
  try {
    const out = await ssm.send(new GetParameterCommand({ Name: name }));
    text = out.Parameter?.Value ?? '';
  } catch (error) {
    if ((error as Error).name === 'ParameterNotFound') return NO_MUTES;
    throw new MutesParameterError(`cannot read ${name}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return parseMutesText(text);
}

/** Windows whose end has come: "windows that have ended are cleaned up" on every write. */
export function ended(windows: readonly MaintenanceWindow[], now: number) {
  return windows.filter((w) => Date.parse(w.to) <= now);
}

/**
 * Writes the windows without those that have ended, validated as the alerter will read them;
 * answers the ended ones removed. Last write wins: two operators writing in the same second
 * may lose one's window, which `mutes` shows.
 */
export async function writeMutes(
  ssm: SSMClient,
  name: string,
  windows: readonly MaintenanceWindow[],
  now: number,
): Promise<MaintenanceWindow[]> {
  const gone = ended(windows, now);
  const doc = { schema: NO_MUTES.schema, windows: windows.filter((w) => !gone.includes(w)) };
  if (!z.safeParse(MutesDocument, doc).success) throw new MutesDocumentError(mutesProblems(doc));
  await ssm.send(
    new PutParameterCommand({
      Name: name,
      Value: JSON.stringify(doc),
      Type: 'String',
      Overwrite: true,
    }),
  );
  return gone;
}

/** `site ACME, kind offline` */
export function describeMatch(w: MaintenanceWindow): string {
  const m = w.match;
  const parts = [
    m.gsm && `gsm ${m.gsm}`,
    m.site && `site ${m.site}`,
    m.machineId && `machine ${m.machineId}`,
    m.kind && `kind ${m.kind}`,
  ];
  return parts.filter(Boolean).join(', ');
}
