export { checkExpectedRevision, checkFrom } from './check-options.js';
export {
  decodeJson,
  decodeMessage,
  decodeRecord,
  encodeMessages,
  encodeRecord,
  encodeValue,
  UnstorableValueError,
} from './codec/index.js';
export { StoreConflictError, StoreError, type StoreOperation } from './errors/index.js';
export { type FileStoreOptions, type FileStoreWarning, fileStore } from './file-store.js';
export { memoryStore } from './memory-store.js';
export type {
  LoadHistoryOptions,
  SaveRecordOptions,
  SessionRecord,
  SessionStore,
  UsageRecord,
} from './session-store.js';
export { type SqliteStore, type SqliteStoreOptions, sqliteStore } from './sqlite-store.js';
export { validateCompactionState, validateSessionRecord } from './validate-record.js';
