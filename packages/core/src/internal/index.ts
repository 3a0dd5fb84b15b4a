/**
 * `@compaction/core/internal`: what the adapters share with core but an
 * application should not need — content ids for frameworks whose messages carry
 * none, the pieces of the token estimate, the summarizer fallback step. These
 * names may change in any release without a major version; build on the root
 * export (`@compaction/core`) instead.
 *
 * @packageDocumentation
 */
export { type CompactCounting, type CompactWithOptions, compactWith } from '../compaction/compact-with.js';
export { contextTokens } from '../compaction/context-tokens.js';
export { pruneTargetTokens } from '../compaction/prune-only.js';
export {
  CONTENT_ID_PREFIX,
  chainedContentIds,
  contentFingerprint,
  hashString,
  nextContentId,
  STRING_SAMPLE_CHARS,
} from '../messages/content-id.js';
export { sameContent } from '../messages/same-content.js';
export { type RetryOnOverflowOptions, retryOnOverflow } from '../overflow/retry-on-overflow.js';
export { shouldRetryOnOverflow } from '../overflow/should-retry-on-overflow.js';
export { ADAPTER_OPTION_HINTS } from '../settings/adapter-option-hints.js';
export { type AdapterOptionsTable, checkAdapterOptions } from '../settings/check-adapter-options.js';
export { type SerialQueue, serialQueue } from '../store/serial-queue.js';
export {
  fallbackChain,
  type SummarizeWithFallbackOptions,
  summarizeWithFallback,
} from '../summarize/fallback/summarize-with-fallback.js';
export {
  checkSummarizerOptions,
  LLM_SUMMARIZER_OPTION_KEYS,
} from '../summarize/llm/check-llm-summarizer-options.js';
export {
  calibrationRatio,
  MAX_CALIBRATION_RATIO,
  MIN_CALIBRATION_RATIO,
  MIN_CALIBRATION_TOKENS,
} from '../tokens/calibration-ratio.js';
export { countInRuns, MAX_RUN_CHARS } from '../tokens/count-in-runs.js';
export { TOKEN_CACHE_ENTRY_BYTES } from '../tokens/create-token-cache.js';
export { SHARED_TOKEN_CACHE_BYTES } from '../tokens/shared-token-cache.js';
export { isMediaValue, type SplitMedia, splitMedia } from '../tokens/split-media.js';
export { CALIBRATION_ALPHA, updateCalibration } from '../tokens/update-calibration.js';
