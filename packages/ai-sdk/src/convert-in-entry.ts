import type { Message } from '@compaction/core';
import type { AiSdkModel } from './as-language-model.js';
import { conversationKey } from './conversation-key.js';
import type { MessageConverter } from './message-converter.js';
import type { SessionRegistry } from './session-registry.js';
import type { AiSdkMessage } from './to-core-messages.js';

/**
 * Converts a call's messages with the conversion kept in the conversation's
 * registry entry (one entry for its session and conversion), and names the
 * session: `explicit` when given, else the conversation key of what was
 * converted. `key` is where the previous conversion was looked up (`explicit`, or
 * `promptConversationKey(messages)`); when the converted key differs — an edit
 * of an opening message that only a full-content id tells apart — that
 * conversation's entry keeps the conversion too.
 */
export function convertInEntry(
  sessions: SessionRegistry,
  converter: MessageConverter,
  incoming: readonly AiSdkMessage[],
  key: string,
  explicit: string | undefined,
  model: AiSdkModel | string,
): { sessionId: string; messages: Message[] } {
  const entry = sessions.entry(key, model);
  const messages = converter.toCore(incoming, entry);
  if (explicit !== undefined) return { sessionId: explicit, messages };
  const sessionId = conversationKey(messages) ?? key;
  // Both entries keep it: the next call looks it up under `key` again, and only the conversion
  // that saw the edit tells it apart (converted afresh, the edited message would get its old id back).
  if (sessionId !== key) sessions.entry(sessionId, model).conversion = entry.conversion;
  return { sessionId, messages };
}
