export { type AgentStateStore, agentStateStore } from './agent-state-store.js';
export type { ChatModelLike } from './chat-model-like.js';
export {
  type ChatHistoryLike,
  CompactingChatMessageHistory,
  type CompactingChatMessageHistoryOptions,
} from './compacting-chat-message-history.js';
export { type CompactionMiddlewareOptions, compactionMiddleware } from './compaction-middleware.js';
export { type CompactionContextToolsOptions, compactionContextTools } from './context-tools.js';
export { fromCoreMessage, fromCoreMessages } from './from-core-messages.js';
export { langchainGenerate, SUMMARY_CALL_SOURCE } from './langchain-generate.js';
export { type LangchainSummarizerOptions, langchainSummarizer } from './langchain-summarizer.js';
export { assignMessageIds, DERIVED_ID_PREFIX, messageIds } from './message-ids.js';
export {
  COMPACTION_REQUEST_KEY,
  COMPACTION_STATE_KEY,
  type CompactionRequest,
  requestCompaction,
} from './request-compaction.js';
export type { SummarizerOption } from './resolve-summarizer.js';
export { COMPACTION_KWARG, ORIGINAL_MESSAGE_KEY, originalMessage, toCoreMessages } from './to-core-messages.js';
