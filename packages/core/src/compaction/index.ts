export {
  type BuildContextOptions,
  buildContext,
  MISSING_RESULT_OUTPUT,
  PRUNED_OUTPUT_MARKER,
  repairToolPairs,
  SEARCHABLE_HISTORY_NOTE,
  SUMMARY_ACKNOWLEDGEMENT,
  SUMMARY_PREFIX,
  SUMMARY_SUFFIX,
  summaryMessage,
} from './build-context.js';
export { type CompactOptions, compact } from './compact.js';
export {
  COMPACTION_STATE_SCHEMA,
  type CompactionState,
  type CompactionStateSchema,
  type CompactionStrategy,
} from './compaction-state.js';
export { type CutPoint, type FindCutPointOptions, findCutPoint } from './find-cut-point.js';
export {
  type CompactionPlan,
  type PrepareCompactionOptions,
  prepareCompaction,
} from './prepare-compaction.js';
export { type CompactionGuards, shouldCompact } from './should-compact.js';
export { MIN_SUMMARY_TOKENS, SUMMARY_WINDOW_SHARE } from './summarize-plan.js';
