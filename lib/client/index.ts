export { SkywatchClient, type SkywatchClientOptions } from './client.js';
export type { BlockedUrlOptions, CartOptions } from './console.js';
export type { CallOptions, Format } from './context.js';
export { type HealthAnswer, ServiceInformation } from './health.js';
export type { SurpriseEvent } from './read.js';
export type { DnspReportOptions, UsageReportOptions } from './reports.js';
export { serviceValue } from './service-value.js';
export type { AgentStatusOptions, DnspStatusOptions, StatusOf } from './status.js';
