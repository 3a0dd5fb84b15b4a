export { CompactionProcessor } from './compaction-processor.js';
export type { CompactionProcessorOptions } from './compaction-processor-options.js';
export { compactionContextTools, type MastraContextTools } from './context-tools.js';
export { fromCoreMessages } from './from-core-messages.js';
export { MASTRA_ORIGIN_KEY, type MastraEnvelope, type MastraOrigin, mastraOrigin } from './mastra-origin.js';
export { type MastraSummarizerOptions, mastraGenerateText, mastraSummarizer } from './mastra-summarizer.js';
export {
  THREAD_METADATA_KEY,
  type ThreadMetadataStoreOptions,
  type ThreadRecordEntry,
  threadMetadataStore,
} from './thread-store/index.js';
export { type ToCoreMessagesOptions, toCoreMessages } from './to-core-messages.js';
export { withCompaction } from './with-compaction.js';
