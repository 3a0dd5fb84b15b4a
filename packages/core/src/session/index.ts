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
  PreparedContext,
  SessionStats,
} from './types.js';
