export { aiSdkGenerate } from './ai-sdk-generate.js';
export { type AiSdkSummarizerOptions, aiSdkSummarizer } from './ai-sdk-summarizer.js';
export type { ProviderPrompt } from './ai-sdk-types.js';
export type { AiSdkModel } from './as-language-model.js';
export { type CompactionMetadata, compactionMetadata } from './compaction-metadata.js';
export { type CompactionMiddleware, compactionMiddleware } from './compaction-middleware.js';
export type {
  CompactionMiddlewareOptions,
  CompactionOptions,
  CompactionPrepareStepOptions,
} from './compaction-options.js';
export { compactionPrepareStep, type PrepareStepInput } from './compaction-prepare-step.js';
export { type AiSdkContextTools, contextTools } from './context-tools.js';
export { messagesToModelMessages, modelMessagesToMessages } from './convert-model-messages.js';
export { messagesToPrompt, promptToMessages } from './convert-prompt.js';
export { type CompactionNoticeInput, formatCompactionNotice } from './format-compaction-notice.js';
export type { ChatPrompt } from './ui/chat-prompt.js';
export {
  type ChatCompaction,
  type ChatStats,
  type CompactionChat,
  type CompactionChatOptions,
  type CompactionChunkWriter,
  type CompactionStream,
  type CompactionStreamOptions,
  compactionChat,
  MAX_FOCUS_CHARS,
} from './ui/compaction-chat.js';
export * from './ui/index.js';
