import { SkywatchError } from '../../lib/errors/index.js';

/**
 * Thrown at synth time when the Skywatch settings (CDK context or stack props) are invalid.
 * Lists every problem at once so one `cdk synth` shows all that needs fixing.
 */
export class SkywatchConfigError extends SkywatchError {
  readonly issues: readonly string[];

  constructor(issues: readonly string[]) {
    super(
      [
        `Invalid Skywatch configuration (${issues.length} problem${issues.length === 1 ? '' : 's'}).`,
        ...issues.map((issue) => `  - ${issue}`),
        'Set values in cdk.json under context.skywatch, or override one with -c skywatch:<name>=<value>.',
      ].join('\n'),
    );
    this.name = 'SkywatchConfigError';
    this.issues = issues;
  }
}
