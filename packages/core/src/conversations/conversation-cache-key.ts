/**
 * The key of a conversation's entry in a `ConversationCache`: the conversation
 * and the model (a session's context window and calibration are the model's),
 * joined so that no two pairs give the same key.
 *
 * @param modelId - the model id; `undefined` when the adapter does not know it.
 */
export function conversationCacheKey(conversationId: string, modelId: string | undefined): string {
  return `${modelId === undefined ? '' : `${modelId.length}:${modelId}`}\u0000${conversationId}`;
}
