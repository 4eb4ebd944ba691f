/** Standard Webhooks signing and verification, shared by every function that sends or receives. */
export { SigningSecretError } from './errors.js';
export {
  generateSigningSecret,
  MAX_SECRET_BYTES,
  MIN_SECRET_BYTES,
  parseSigningSecret,
  SECRET_PREFIX,
} from './secret.js';
export {
  HEADER_ID,
  HEADER_SIGNATURE,
  HEADER_TIMESTAMP,
  type SignedContent,
  signatureHeader,
  webhookHeaders,
} from './sign.js';
export {
  type Verified,
  type VerifyOptions,
  type VerifyProblem,
  verifyWebhook,
  type WebhookHeader,
} from './verify.js';
