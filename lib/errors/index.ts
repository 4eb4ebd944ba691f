export { type ErrorBody, type ErrorBodyForm, readErrorBody } from './error-body.js';
export {
  AuthError,
  HttpError,
  type HttpErrorOptions,
  NetworkError,
  type ProblemDetails,
  RateLimitError,
  SchemaError,
  SkywatchError,
  TimeoutError,
  ValidationError,
} from './errors.js';
export { redact, redactUrl, redactValue, registerSecret } from './redact.js';
