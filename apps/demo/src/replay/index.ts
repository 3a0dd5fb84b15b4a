export { aiSdkPromptToCore } from './ai-sdk-prompt-to-core.js';
export { type AiSdkReplayModelOptions, aiSdkReplayModel } from './ai-sdk-replay-model.js';
export { langChainMessagesToCore } from './langchain-messages-to-core.js';
export { LangChainReplayModel } from './langchain-replay-model.js';
export { createPromptMeter, type PromptMeasure, type PromptMeter } from './prompt-meter.js';
export {
  type RecordedReplies,
  type RecordedRepliesOptions,
  type ReplayReply,
  type ReplayUsage,
  recordedReplies,
} from './recorded-replies.js';
export { ReplayExhaustedError } from './replay-exhausted-error.js';
