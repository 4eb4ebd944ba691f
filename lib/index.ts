/** Public API of the Skywatch service client. Functions import from here only. */
export * from './auth/index.js';
export * from './client/index.js';
export * from './errors/index.js';
export * from './http/index.js';
export * from './paging/index.js';
export * from './schemas/index.js';
export * from './validation/index.js';
export { userAgent, VERSION } from './version.js';
export * from './xml/index.js';
