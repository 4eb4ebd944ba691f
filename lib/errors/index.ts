export {
  AuthError,
  HttpError,
  NetworkError,
  type ProblemDetails,
  RateLimitError,
  SchemaError,
  SkywatchError,
  TimeoutError,
  ValidationError,
} from './errors.js';
export { redact, redactUrl, redactValue, registerSecret } from './redact.js';
