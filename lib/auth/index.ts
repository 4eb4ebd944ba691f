export { type CredentialsAuth, credentialsTokenManager } from './credentials.js';
export {
  FUNCTION_OPERATIONS,
  type FunctionName,
  functionScopes,
  OPERATION_SCOPES,
  type OperationMethod,
} from './function-scopes.js';
export {
  allOperationScopes,
  baseUrlScope,
  hasScope,
  missingScopes,
  parseScope,
  SCOPES,
} from './scopes.js';
export { StaticTokenSource, type TokenLoader } from './static-token.js';
export { basicAuthorization, type ClientCredentials, requestToken } from './token-endpoint.js';
export { TokenManager, type TokenManagerOptions } from './token-manager.js';
export type {
  AccessToken,
  TokenRequestOptions,
  TokenSet,
  TokenSource,
} from './token-source.js';
