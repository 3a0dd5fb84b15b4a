/**
 * `@compaction/ai-sdk/ui`: what a browser needs — the data-part types and the
 * client helpers — without the server side (no `node:` imports).
 */
export type {
  CompactionBoundary,
  CompactionContextData,
  CompactionData,
  CompactionDataParts,
  CompactionErrorData,
  CompactionUIMessage,
} from './compaction-data.js';
export {
  type CompactionView,
  type ContextLevel,
  type ContextUsage,
  compactionView,
  contextUsage,
  HIGH_CONTEXT_SHARE,
} from './compaction-view.js';
export { latestCompactionData } from './latest-compaction-data.js';
