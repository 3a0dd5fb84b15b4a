/**
 * Estimated bytes one message costs an adapter's kept conversation, besides the
 * text the framework holds anyway: the core message and its parts, its content
 * id, the session's history and id-index entries, the context array's slot and
 * the adapter's converted copy. Measured on the benchmarks' synthetic history
 * (mixed text, tool calls and results) with Node 24; strings the framework
 * already holds are shared, not copied.
 */
export const HELD_MESSAGE_BYTES = 640;

/**
 * Estimated bytes one message costs a kept core session whose core messages
 * something else kept alongside holds (the AI SDK adapter's conversions, in
 * the same budget and used in the same call, so evicted together): its history
 * and context slots and its id-index entry. Measured with Node 24 on the
 * benchmarks' synthetic history: a session over 204 messages holds 21.2 KB,
 * {@link HELD_CONVERSATION_BYTES} of it whatever the length.
 */
export const SESSION_MESSAGE_BYTES = 72;

/** Bytes a kept conversation costs whatever its length (the session, its closures, the record). */
export const HELD_CONVERSATION_BYTES = 8 * 1024;

/**
 * The estimated bytes of a kept conversation that holds `messages` messages
 * (the `sizeOf` of a `ConversationCache` entry). An adapter whose entries hold
 * more or less a message than {@link HELD_MESSAGE_BYTES} says so with `bytesPerMessage`.
 *
 * @default bytesPerMessage HELD_MESSAGE_BYTES
 */
export function heldMessagesBytes(messages: number, bytesPerMessage = HELD_MESSAGE_BYTES): number {
  return HELD_CONVERSATION_BYTES + messages * bytesPerMessage;
}
