import type { AiSdkModel } from './as-language-model.js';
import type { MessageConverter } from './message-converter.js';
import type { SessionEntry, SessionRegistry } from './session-registry.js';

/** A call's conversation as {@link placeConversation} needs it (what `convertInEntry` returned). */
export type PlacedConversation = {
  readonly sessionId: string;
  readonly model: AiSdkModel | string;
  readonly entry: SessionEntry;
};

/**
 * After the session prepared a call: when it holds the history counted, not loaded (`asIs`),
 * the conversion lets go of its core messages (the session reads only new messages; one it
 * asks for again is made from the kept values and id) and the entry moves to the process's
 * budget of counted conversations; otherwise it stays (or moves back) with the loaded ones.
 */
export function placeConversation(
  sessions: SessionRegistry,
  converter: MessageConverter,
  conversation: PlacedConversation,
  asIs: boolean,
): void {
  const { entry } = conversation;
  if (asIs) converter.release(entry);
  entry.counted = asIs;
  // Put again even in the same budget: what it holds changed (let go, or made again by a read).
  sessions.place(conversation.sessionId, conversation.model, entry);
}
