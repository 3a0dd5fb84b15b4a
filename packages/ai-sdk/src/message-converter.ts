import {
  type ConversationMemory,
  createConversationCache,
  HELD_MESSAGE_BYTES,
  heldMessagesBytes,
  type Message,
  processConversationMemory,
} from '@compaction/core';
import { contentFingerprint, hashString, nextContentId } from '@compaction/core/internal';
import {
  countResentMessages,
  keepSent,
  rememberSent,
  SENT_MESSAGE_BYTES,
  type SentMessages,
  sentMessages,
} from './count-resent-messages.js';
import { fromCoreMessage } from './from-core-message.js';
import {
  type AiSdkMessage,
  CONVERSATION_ID_PREFIX,
  leadingSystemMessages,
  SYSTEM_ID_PREFIX,
  toCoreMessage,
} from './to-core-messages.js';

/** Converts the history a framework re-sends on every call, and the prepared context back. */
export type MessageConverter = {
  /** Same ids and content as `toCoreMessages(messages)`. */
  toCore(messages: readonly AiSdkMessage[]): Message[];
  /** Same messages as `messages.map(fromCoreMessage)`. */
  fromCore(messages: readonly Message[]): AiSdkMessage[];
};

/** One chain (leading system messages, or the conversation) as last converted. */
type Chain = {
  /** The core messages, each made once and reused while its content comes back unchanged. */
  messages: Message[];
  /** The AI SDK message of each, side by side (what `originalMessage` holds), and the values the next call is compared with. */
  sent: SentMessages;
};

/** A conversation's last conversion. */
type Conversion = { system: Chain; conversation: Chain };

/**
 * The conversions of one middleware or prepareStep function, at a cost that
 * grows with what is new rather than with the history. The AI SDK re-sends the
 * whole history as new objects on every call, so `toCore` remembers each
 * conversation's last conversion (keyed by its opening exchange) and, while the
 * incoming messages have the same content as the remembered ones
 * (`countResentMessages`: no hashing, a few identity checks a message against the
 * flat values kept of the last call), reuses those core messages and their ids;
 * only the messages after the first difference are converted and hashed.
 * `fromCore` gives the messages that end the context as they end the last
 * conversion (what core kept) their originals without comparing parts, and
 * every other core message the AI SDK message it gave before (core messages are
 * never modified in place).
 *
 * Conversations are kept in core's `createConversationCache`, least recently
 * used out first: in `memory` (estimated bytes; by default the process's one
 * budget, which the session registry's sessions share, so a conversation's
 * conversion and session grow old together), or past `maxConversations` when given.
 *
 * @default maxConversations undefined (the byte budget applies)
 * @default memory processConversationMemory()
 */
export function messageConverter(
  maxConversations?: number,
  memory: ConversationMemory = processConversationMemory(),
): MessageConverter {
  const recent = createConversationCache<Conversion>(
    maxConversations === undefined
      ? {
          memory,
          sizeOf: (conversion) =>
            heldMessagesBytes(conversionLength(conversion), HELD_MESSAGE_BYTES + SENT_MESSAGE_BYTES),
        }
      : { maxBytes: maxConversations, sizeOf: () => 1 },
  );
  /** The AI SDK message of each core message `fromCore` had to convert (what core wrote or changed). */
  const aiSdkMessages = new WeakMap<Message, AiSdkMessage>();
  /** The last conversion made, whose messages core mostly returns as they are. */
  let last: Conversion | undefined;

  function aiSdkMessage(message: Message): AiSdkMessage {
    let converted = aiSdkMessages.get(message);
    if (converted === undefined) {
      converted = fromCoreMessage(message);
      aiSdkMessages.set(message, converted);
    }
    return converted;
  }

  function convert(
    messages: readonly AiSdkMessage[],
    start: number,
    end: number,
    prefix: string,
    previous: Chain | undefined,
  ): Chain {
    const same = previous === undefined ? 0 : countResentMessages(messages, start, end, previous.sent);
    // The previous chain is this converter's alone (callers get a copy): cut it to what still holds and extend it.
    const converted: Chain = previous ?? { messages: [], sent: sentMessages() };
    // The id the first changed message had: a sampled fingerprint may miss an edit, so
    // an edited message that hashes to it gets a full-content hash mixed in.
    const displacedId = converted.messages[same]?.id;
    if (same < converted.messages.length) converted.messages.length = same;
    keepSent(converted.sent, same);
    let id = same > 0 ? converted.messages[same - 1]!.id : undefined;
    for (let index = start + same; index < end; index += 1) {
      const message = messages[index]!;
      const previousId = id;
      id = nextContentId(message, previousId, prefix);
      if (index === start + same && id === displacedId) {
        const seed = previousId === undefined ? '' : previousId.slice(prefix.length);
        id = `${prefix}${hashString(JSON.stringify(message) ?? '', contentFingerprint(message, seed))}`;
      }
      const core = toCoreMessage(message, id);
      converted.messages.push(core);
      rememberSent(converted.sent, message);
    }
    return converted;
  }

  return {
    toCore(messages) {
      const leading = leadingSystemMessages(messages);
      const key = openingKey(messages, leading);
      const previous = recent.take(key);
      const conversion: Conversion = {
        system: convert(messages, 0, leading, SYSTEM_ID_PREFIX, previous?.system),
        conversation: convert(messages, leading, messages.length, CONVERSATION_ID_PREFIX, previous?.conversation),
      };
      recent.put(key, conversion);
      last = conversion;
      return conversion.system.messages.concat(conversion.conversation.messages);
    },
    fromCore(messages) {
      // The kept messages end the context as they end the last conversion: matched from the end by
      // position (identity checks only), they come back as their originals, a slice of each chain.
      let index = messages.length;
      const tails: AiSdkMessage[][] = [];
      for (const chain of last === undefined ? [] : [last.conversation, last.system]) {
        const originals = chain.sent.messages as AiSdkMessage[];
        let position = chain.messages.length;
        while (index > 0 && position > 0 && messages[index - 1] === chain.messages[position - 1]) {
          index -= 1;
          position -= 1;
        }
        tails.unshift(position === 0 ? originals : originals.slice(position));
        if (position > 0) break;
      }
      // Built front to back in one copy (`new Array(n)` of ten thousand would be a slow dictionary).
      const converted: AiSdkMessage[] = [];
      for (let front = 0; front < index; front += 1) converted.push(aiSdkMessage(messages[front]!));
      return converted.concat(...tails);
    },
  };
}

/** The content chain of the first two messages after the leading system messages (`''` when none). */
function openingKey(messages: readonly AiSdkMessage[], leading: number): string {
  let chain = '';
  const end = Math.min(messages.length, leading + 2);
  for (let index = leading; index < end; index += 1) chain = contentFingerprint(messages[index], chain);
  return chain;
}

function conversionLength(conversion: Conversion): number {
  return conversion.system.messages.length + conversion.conversation.messages.length;
}
