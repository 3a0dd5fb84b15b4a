import type { CompactionSession } from '@compaction/core';
import type { AiSdkModel } from './as-language-model.js';
import { conversationKey, promptConversationKey } from './conversation-key.js';
import type { ConvertedHistory } from './converted-history.js';
import type { MessageConverter } from './message-converter.js';
import type { PlacedConversation } from './place-conversation.js';
import type { SessionRegistry } from './session-registry.js';
import type { AiSdkMessage } from './to-core-messages.js';

/** A call's conversation: its session and entry (see {@link convertInEntry}), and its prompt converted. */
export type ConversationInEntry = PlacedConversation & {
  readonly session: CompactionSession;
  readonly history: ConvertedHistory;
};

/**
 * A call's conversation, what the middleware and prepareStep both start with:
 * its messages converted (as a history source for `prepare({ history })`) with the conversion kept in the conversation's registry
 * entry (one entry for its session and conversion), and its session, holding
 * them. The session is `explicit` when given, else the conversation key of what
 * was converted. The previous conversion is looked up under `explicit`, or
 * `promptConversationKey(incoming)`; when the converted key differs — an edit of
 * an opening message that only a full-content id tells apart — that
 * conversation's entry keeps the conversion too. `undefined` when the messages
 * name no conversation (system messages only): the call goes through untouched.
 */
export function convertInEntry(
  sessions: SessionRegistry,
  converter: MessageConverter,
  incoming: readonly AiSdkMessage[],
  explicit: string | undefined,
  model: AiSdkModel | string,
): ConversationInEntry | undefined {
  const key = explicit ?? promptConversationKey(incoming);
  if (key === undefined) return undefined;
  const entry = sessions.entry(key, model);
  const history = converter.toHistory(incoming, entry);
  const sessionId = explicit ?? conversationKey({ length: history.length, at: (index) => history.head(index) }) ?? key;
  // Both entries keep it: the next call looks it up under `key` again, and only the conversion
  // that saw the edit tells it apart (converted afresh, the edited message would get its old id back).
  if (sessionId !== key) sessions.entry(sessionId, model).conversion = entry.conversion;
  const own = sessions.entry(sessionId, model, history.length);
  return { session: own.session, history, entry: own, sessionId, model };
}
