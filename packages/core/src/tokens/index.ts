export {
  calibrationRatio,
  MAX_CALIBRATION_RATIO,
  MIN_CALIBRATION_RATIO,
  MIN_CALIBRATION_TOKENS,
} from './calibration-ratio.js';
export { countInRuns, MAX_RUN_CHARS } from './count-in-runs.js';
export { countMessageTokens, countPartTokens, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS } from './count-message-tokens.js';
export {
  createTokenCache,
  TOKEN_CACHE_ENTRY_BYTES,
  type TokenCache,
  type TokenCacheOptions,
} from './create-token-cache.js';
export {
  calibratedTokens,
  type EstimateContextOptions,
  estimateContextTokens,
  type LastUsage,
} from './estimate-context-tokens.js';
export { gptTokenizerCounter } from './gpt-tokenizer-counter.js';
export { heuristicCounter } from './heuristic-counter.js';
export { maxMessageTokens } from './max-message-tokens.js';
export { SHARED_TOKEN_CACHE_BYTES, sharedTokenCache } from './shared-token-cache.js';
export { isMediaValue, type SplitMedia, splitMedia } from './split-media.js';
export { type TiktokenEncoding, tiktokenCounter } from './tiktoken-counter.js';
export type { TokenCounter } from './token-counter.js';
export { CALIBRATION_ALPHA, updateCalibration } from './update-calibration.js';
