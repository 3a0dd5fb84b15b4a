export {
  buildStructuredSummary,
  COMPACT_STRUCTURED_BUDGET,
  DEFAULT_STRUCTURED_BUDGET,
} from './build-structured-summary.js';
export {
  buildSummaryPrompt,
  buildSummaryPromptFromTranscript,
  TURN_PREFIX_CONTINUATION_NOTE,
} from './build-summary-prompt.js';
export { callWithTimeout } from './call-with-timeout.js';
export {
  checkSummaryQuality,
  judgeSummary,
  OVERSIZED_FACTOR,
  type SummaryQuality,
  type SummaryQualityOptions,
  summaryContentLines,
} from './check-summary-quality.js';
export { cutText, cutToTokens } from './cut-text.js';
export {
  DEFAULT_FILE_TOOL_MAP,
  type FileToolMap,
  type FileToolPaths,
  type FileToolRule,
  inputFilePaths,
} from './default-file-tool-map.js';
export { escapeFraming, FRAMING_TAGS } from './escape-framing.js';
export { extractFileOperations } from './extract-file-operations.js';
export {
  genuineRequestText,
  HARNESS_TAGS,
  isHarnessText,
  lastGenuineRequest,
  userWords,
} from './harness-text.js';
export {
  DEFAULT_HISTORY_MAX_OUTPUT_TOKENS,
  DEFAULT_SUMMARY_CONTEXT_WINDOW,
  DEFAULT_TURN_PREFIX_MAX_OUTPUT_TOKENS,
  type LlmSummarizerOptions,
  llmSummarizer,
} from './llm-summarizer.js';
export { mergeFileOperations } from './merge-file-operations.js';
export { parseFileOperations } from './parse-file-operations.js';
export { removeFileOperationBlocks } from './remove-file-operation-blocks.js';
export { renderFileOperations } from './render-file-operations.js';
export {
  DEFAULT_MAX_TOOL_OUTPUT_CHARS,
  type SerializeConversationOptions,
  serializeConversation,
  serializeMessages,
  wrapTranscript,
} from './serialize-conversation.js';
export { appendLastRequest, LAST_REQUEST_PREFIX, splitLastRequest } from './split-last-request.js';
export { type StructuredSummarizerOptions, structuredSummarizer } from './structured-summarizer.js';
export { HISTORY_SUMMARY_HEADINGS, TURN_PREFIX_SUMMARY_HEADINGS } from './summary-headings.js';
export {
  DEFAULT_PROMPTS,
  INITIAL_SUMMARY_PROMPT,
  SUMMARIZATION_SYSTEM_PROMPT,
  type SummaryPrompts,
  TURN_PREFIX_PROMPT,
  UPDATE_SUMMARY_PROMPT,
} from './summary-prompts.js';
export { type TruncateSummarizerOptions, truncateSummarizer } from './truncate-summarizer.js';
export type { FileOperations, GenerateText, GenerateTextResult, SummarizeRequest, Summarizer } from './types.js';
