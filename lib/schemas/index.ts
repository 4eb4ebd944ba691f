export * from './agent-status.js';
export * from './blocked-urls.js';
export * from './cart.js';
export { DateTime, formatPath, parseResponse } from './common.js';
export * from './dnsp-status.js';
export * from './paged.js';
export * from './reports.js';
export * from './token.js';
