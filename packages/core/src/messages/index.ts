export {
  hasToolCalls,
  hasToolResults,
  isPinned,
  isTurnStart,
  isUserRequest,
  lastUserRequest,
  messageText,
  toolCalls,
  toolResults,
} from './message-helpers.js';
export { parseMessages } from './parse-messages.js';
export type {
  FilePart,
  Message,
  MessageUsage,
  Part,
  ProviderOptions,
  ReasoningPart,
  Role,
  TextPart,
  ToolCallPart,
  ToolResultPart,
} from './types.js';
