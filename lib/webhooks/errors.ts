/**
 * A signing secret that is not `whsec_` + base64 of 24–64 random bytes. The message names the
 * field and the rule, never the value.
 */
export class SigningSecretError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'SigningSecretError';
  }
}
