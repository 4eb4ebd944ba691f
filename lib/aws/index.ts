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
  CheckpointError,
  ConfigError,
  ConflictError,
  QueueError,
  SecretError,
  StorageError,
  UploadGoneError,
} from './errors.js';
export { type FifoBatchOptions, HeldInGroupError, processFifoBatch } from './fifo-batch.js';
export { manifestKey, type ReportKeyParts, reportKey } from './report-keys.js';
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
export {
  type CredentialsSecret,
  CredentialsSecretSchema,
  type TokenSecret,
  TokenSecretSchema,
} from './secret-shapes.js';
export { type ReadOptions, SecretStore } from './secret-store.js';
export { SecretTokenSource } from './secret-token-source.js';
export { StateStore, type WriteCondition } from './state-store.js';
export {
  type MessageEnvelope,
  type SendOutcome,
  type UnsentItem,
  WorkQueue,
  type WorkQueueOptions,
} from './work-queue.js';
