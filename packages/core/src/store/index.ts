export { type FileStoreOptions, type FileStoreWarning, fileStore } from './file-store.js';
export { memoryStore } from './memory-store.js';
export type { SessionRecord, SessionStore, UsageRecord } from './session-store.js';
export { validateCompactionState, validateSessionRecord } from './validate-record.js';
