export { AlertHistory, type AlertHistoryWriter } from './alert-history.js';
export {
  type Alert,
  type AlertKind,
  AlertPublisher,
  type AlertSeverity,
  snsSubject,
} from './alert-publisher.js';
export {
  type AwsClientHook,
  type AwsClientOptions,
  type AwsClients,
  createAwsClients,
  instrumentAwsClients,
  s3Client,
  secretsClient,
  snsClient,
  sqsClient,
  ssmClient,
} from './clients.js';
export {
  type Claim,
  type Claimant,
  ClaimLostError,
  type ClaimOutcome,
  ConditionalRecords,
  type SeenRecord,
  type StoredRecord,
} from './conditional-record.js';
export { DeliveryQueue } from './delivery-queue.js';
export {
  DocumentParameter,
  type DocumentParameterOptions,
  type DocumentReading,
} from './document-parameter.js';
export {
  CheckpointError,
  ConfigError,
  ConflictError,
  ObjectGoneError,
  QueueError,
  SecretError,
  StorageError,
  UploadGoneError,
} from './errors.js';
export { type FifoBatchOptions, HeldInGroupError, processFifoBatch } from './fifo-batch.js';
export { mutesParameter } from './mutes-parameter.js';
export {
  alertEventsKey,
  DNSP_REPORT_TYPE,
  dnspUsageKey,
  GSM_REPORT_TYPES,
  gsmUsageKey,
  manifestKey,
  type ReportKeyParts,
  reportKey,
  SNAPSHOT_DATASETS,
  siteUsageKey,
  snapshotKey,
} from './report-keys.js';
export {
  type ArchivedObject,
  DEFAULT_GZIP_LEVEL,
  ReportStore,
  type ReportStoreOptions,
} from './report-store.js';
export {
  type ResumableCheckpoint,
  ResumableCheckpointSchema,
} from './resumable-checkpoint.js';
export {
  type ResumableObjectOptions,
  ResumableObjectWriter,
  type ResumeOptions,
} from './resumable-object.js';
export { RoutingParameter, type RoutingParameterOptions } from './routing-parameter.js';
export {
  type CredentialsSecret,
  CredentialsSecretSchema,
  type TokenSecret,
  TokenSecretSchema,
} from './secret-shapes.js';
export { type ReadOptions, SecretStore } from './secret-store.js';
export { SecretTokenSource } from './secret-token-source.js';
export { StateStore, type Stored, type WriteCondition } from './state-store.js';
export {
  type MessageEnvelope,
  type SendOutcome,
  type UnsentItem,
  WorkQueue,
  type WorkQueueOptions,
} from './work-queue.js';
