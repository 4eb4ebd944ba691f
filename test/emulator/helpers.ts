/** What the conformance tests use, from one place. */
export * from './dates.js';
export * from './http.js';
export * from './pages.js';
export * from './tokens.js';
