import type { HistorySource, Message } from '@compaction/core';
import { type Chain, chainHead, chainMessage, heldChainMessage, pushChainMessages } from './conversion-chain.js';

/**
 * One call's conversion as the session reads it (`prepare({ history })`): the core
 * messages of the leading system messages and of the conversation as they stood after
 * the call was converted, read only as far as the session asks, and how they relate to
 * the conversion before (`since`: its first `unchanged` messages are that one's, same
 * ids and same content, as the resent-message comparison proved). The session takes
 * `since` on trust only when the source it names is the one it was last brought in line
 * with and nothing else changed its history since; otherwise it compares every id.
 */
export type ConvertedHistory = {
  readonly length: number;
  /** The messages from `from` to `length`, in a new array. */
  messages(from: number): Message[];
  /** The message at `index` (`0 <= index < length`), `undefined` past the end. */
  at(index: number): Message | undefined;
  /** The id and role of the message at `index`, read without making a core message again. */
  head(index: number): { id: string; role: Message['role'] } | undefined;
  /** How many messages end both `messages` and this history: the very same objects, counted from the end. */
  sameAtEnd(messages: readonly Message[]): number;
  /** See `HistorySource.since`; the next call's conversion lets go of it (no chain of old calls is kept). */
  since?: { readonly source: HistorySource; readonly unchanged: number };
};

/**
 * The {@link ConvertedHistory} of the first `systemLength` messages of `system` followed
 * by the first `conversationLength` of `conversation`. The chains are the converter's,
 * which only ever grow past those lengths (a chain cut by an edit is a new one), so what
 * this history reads never changes, however many calls come after: a core message the
 * chain let go (its session held the history counted) is made again with the same id and
 * content when asked for.
 * `previous` is the last call's, whose first `unchanged` messages are this one's.
 */
export function convertedHistory(
  system: Chain,
  systemLength: number,
  conversation: Chain,
  conversationLength: number,
  previous: ConvertedHistory | undefined,
  unchanged: number,
): ConvertedHistory {
  // Only the last call's is ever asked for: no chain of old calls is kept alive.
  if (previous !== undefined) previous.since = undefined;
  return new ChainHistory(
    system,
    systemLength,
    conversation,
    conversationLength,
    previous !== undefined && unchanged > 0 ? { source: previous, unchanged } : undefined,
  );
}

/**
 * A {@link ConvertedHistory} as one object (its methods on the prototype, not closures made
 * a call: a conversation's session keeps its last one, and a process keeps thousands).
 */
class ChainHistory implements ConvertedHistory {
  readonly length: number;
  constructor(
    private readonly system: Chain,
    private readonly systemLength: number,
    private readonly conversation: Chain,
    private readonly conversationLength: number,
    public since: ConvertedHistory['since'],
  ) {
    this.length = systemLength + conversationLength;
  }

  messages(from: number): Message[] {
    return messagesFrom(from, this.system, this.systemLength, this.conversation, this.length);
  }

  at(index: number): Message | undefined {
    if (index < 0 || index >= this.length) return undefined;
    return index < this.systemLength
      ? chainMessage(this.system, index)
      : chainMessage(this.conversation, index - this.systemLength);
  }

  head(index: number): { id: string; role: Message['role'] } | undefined {
    if (index < 0 || index >= this.length) return undefined;
    return index < this.systemLength
      ? chainHead(this.system, index)
      : chainHead(this.conversation, index - this.systemLength);
  }

  sameAtEnd(messages: readonly Message[]): number {
    return sameAtEnd(messages, this.system, this.systemLength, this.conversation, this.conversationLength);
  }
}

function messagesFrom(
  from: number,
  system: Chain,
  systemLength: number,
  conversation: Chain,
  length: number,
): Message[] {
  const start = Math.max(0, Math.trunc(from) || 0);
  const out: Message[] = [];
  if (start < systemLength) pushChainMessages(system, start, systemLength, out);
  pushChainMessages(conversation, Math.max(start, systemLength) - systemLength, length - systemLength, out);
  return out;
}

/** Counted from the end, over the core messages the chains hold (one let go is no object of the context). */
function sameAtEnd(
  messages: readonly Message[],
  system: Chain,
  systemLength: number,
  conversation: Chain,
  conversationLength: number,
): number {
  let end = messages.length;
  let at = conversationLength;
  while (end > 0 && at > 0 && messages[end - 1] === heldChainMessage(conversation, at - 1)) {
    end -= 1;
    at -= 1;
  }
  if (at === 0) {
    at = systemLength;
    while (end > 0 && at > 0 && messages[end - 1] === heldChainMessage(system, at - 1)) {
      end -= 1;
      at -= 1;
    }
  }
  return messages.length - end;
}
