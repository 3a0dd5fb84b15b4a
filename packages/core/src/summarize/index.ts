export { callWithTimeout } from './fallback/call-with-timeout.js';
export {
  DEFAULT_FILE_TOOL_MAP,
  type FileToolMap,
  type FileToolPaths,
  type FileToolRule,
  inputFilePaths,
} from './file-operations/default-file-tool-map.js';
export { extractFileOperations } from './file-operations/extract-file-operations.js';
export { mergeFileOperations } from './file-operations/merge-file-operations.js';
export { parseFileOperations } from './file-operations/parse-file-operations.js';
export { removeFileOperationBlocks } from './file-operations/remove-file-operation-blocks.js';
export { renderFileOperations } from './file-operations/render-file-operations.js';
export { cutText, cutToTokens } from './framing/cut-text.js';
export { escapeFraming, FRAMING_TAGS } from './framing/escape-framing.js';
export {
  genuineRequestText,
  HARNESS_TAGS,
  isHarnessText,
  lastGenuineRequest,
  userWords,
} from './framing/harness-text.js';
export {
  DEFAULT_MAX_TOOL_OUTPUT_CHARS,
  type SerializeConversationOptions,
  serializeConversation,
  serializeMessages,
  wrapTranscript,
} from './framing/serialize-conversation.js';
export { appendLastRequest, LAST_REQUEST_PREFIX, splitLastRequest } from './framing/split-last-request.js';
export {
  buildSummaryPrompt,
  buildSummaryPromptFromTranscript,
  TURN_PREFIX_CONTINUATION_NOTE,
} from './llm/build-summary-prompt.js';
export {
  DEFAULT_HISTORY_MAX_OUTPUT_TOKENS,
  DEFAULT_SUMMARY_CONTEXT_WINDOW,
  DEFAULT_TURN_PREFIX_MAX_OUTPUT_TOKENS,
  type LlmSummarizerOptions,
  llmSummarizer,
} from './llm/llm-summarizer.js';
export {
  DEFAULT_PROMPTS,
  INITIAL_SUMMARY_PROMPT,
  SUMMARIZATION_SYSTEM_PROMPT,
  type SummaryPrompts,
  TURN_PREFIX_PROMPT,
  UPDATE_SUMMARY_PROMPT,
} from './llm/summary-prompts.js';
export {
  checkSummaryQuality,
  judgeSummary,
  OVERSIZED_FACTOR,
  type SummaryQuality,
  type SummaryQualityOptions,
  summaryContentLines,
} from './quality/check-summary-quality.js';
export { HISTORY_SUMMARY_HEADINGS, TURN_PREFIX_SUMMARY_HEADINGS } from './quality/summary-headings.js';
export { renderSummary, type SummaryFields, TURN_PREFIX_HEADING } from './render-summary.js';
export {
  buildStructuredSummary,
  COMPACT_STRUCTURED_BUDGET,
  DEFAULT_STRUCTURED_BUDGET,
} from './structured/build-structured-summary.js';
export type { CarriedFacts } from './structured/carried-facts.js';
export { type StructuredSummarizerOptions, structuredSummarizer } from './structured/structured-summarizer.js';
export { type TruncateSummarizerOptions, truncateSummarizer } from './truncate/truncate-summarizer.js';
export type {
  FileOperations,
  GenerateText,
  GenerateTextResult,
  PreviousSummary,
  SummarizeRequest,
  Summarizer,
  SummaryDraft,
  SummaryPart,
} from './types.js';
