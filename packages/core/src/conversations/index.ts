export { conversationCacheKey } from './conversation-cache-key.js';
export {
  type ConversationMemory,
  createConversationMemory,
  PROCESS_CONVERSATION_BYTES,
  PROCESS_COUNTED_CONVERSATION_BYTES,
  processConversationMemory,
  processCountedConversationMemory,
} from './conversation-memory.js';
export { conversationTokenCache } from './conversation-token-cache.js';
export {
  CONVERSATION_CACHE_BYTES,
  type ConversationCache,
  type ConversationCacheOptions,
  createConversationCache,
} from './create-conversation-cache.js';
export {
  HELD_CONVERSATION_BYTES,
  HELD_MESSAGE_BYTES,
  heldMessagesBytes,
  SESSION_MESSAGE_BYTES,
} from './held-messages-bytes.js';
