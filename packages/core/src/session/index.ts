export type { AdapterOptions } from './adapter-options.js';
export { createCompactionSession } from './create-compaction-session.js';
export type {
  CompactionEndEvent,
  CompactionErrorEvent,
  CompactionEvent,
  CompactionResult,
  CompactionSession,
  CompactionSessionOptions,
  CompactionStartEvent,
  CompactionTrigger,
  HistorySource,
  PreparedContext,
  PrepareOptions,
  SessionStats,
  StoreErrorEvent,
} from './types.js';
