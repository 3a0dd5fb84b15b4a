export { type RunThreadStores, runThreadStores } from './run-thread-stores.js';
export { THREAD_METADATA_KEY, type ThreadMetadataStoreOptions, threadMetadataStore } from './thread-metadata-store.js';
export { readThreadRecordEntry, type ThreadRecordEntry } from './thread-record-entry.js';
