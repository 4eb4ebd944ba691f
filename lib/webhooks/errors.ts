import { SkywatchError } from '../errors/index.js';

/**
 * A signing secret that is not `whsec_` + canonical base64 of 24–64 random bytes. The message
 * names the field, the rule and what to do, never the value.
 */
export class SigningSecretError extends SkywatchError {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'SigningSecretError';
  }
}
