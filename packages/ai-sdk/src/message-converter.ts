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
  appendToChain,
  type Chain,
  chainId,
  chainLength,
  chainPrefix,
  heldMessages,
  newChain,
  releaseChain,
} from './conversion-chain.js';
import { type ConvertedHistory, convertedHistory } from './converted-history.js';
import { countResentMessages, lastUserIndex, SENT_MESSAGE_BYTES } from './count-resent-messages.js';
import { fromCoreMessage } from './from-core-message.js';
import {
  type AiSdkMessage,
  CONVERSATION_ID_PREFIX,
  leadingSystemMessages,
  SYSTEM_ID_PREFIX,
  toCoreMessage,
} from './to-core-messages.js';

/**
 * Where a caller keeps a conversation's last conversion itself (the session
 * registry's entry of the conversation: one entry for the session and its
 * conversion). What it holds is the converter's; give the same slot each call.
 */
export type ConversionSlot = { conversion?: object };

/** Converts the history a framework re-sends on every call, and the prepared context back. */
export type MessageConverter = {
  /**
   * Same ids and content as `toCoreMessages(messages)`. The conversation's last
   * conversion is taken from and kept in `slot` when given, else in the converter's own cache.
   */
  toCore(messages: readonly AiSdkMessage[], slot?: ConversionSlot): Message[];
  /**
   * The same conversion as {@link toCore}, as a history source for the session's
   * `prepare({ history })`: nothing of the history is copied, and `since` tells the
   * session how many messages are those of this conversation's last conversion (the
   * resent-message comparison's count), so a session last brought in line with that one
   * reads only the new messages instead of comparing every id.
   */
  toHistory(messages: readonly AiSdkMessage[], slot?: ConversionSlot): ConvertedHistory;
  /**
   * Lets go of the core messages of the conversion kept in `slot` (its session holds the
   * history counted, not loaded, and reads only new messages): what stays is, per message,
   * the packed values the next call is compared with and its id; a history handed out over
   * it makes a message again when the session asks for it (the same id and content).
   */
  release(slot: ConversionSlot): void;
  /**
   * Same messages as `messages.map(fromCoreMessage)` (a prepared context), where the
   * messages of `converted` (what `toCore` or `toHistory` returned for this call) come back
   * as the very objects of `incoming` (what it was given) at their places.
   */
  fromCore(
    messages: readonly Message[],
    converted?: readonly Message[] | ConvertedHistory,
    incoming?: readonly AiSdkMessage[],
  ): AiSdkMessage[];
};

/**
 * A conversation's last conversion, and the history handed out for it with the chain
 * lengths it covers: while the chains still have those lengths, they are what it holds.
 */
type Conversion = {
  system: Chain;
  conversation: Chain;
  history: ConvertedHistory;
  systemLength: number;
  conversationLength: number;
  /** Where the last user message of the conversation chain was (the next call compares from there in full). */
  lastUser: number;
};

/**
 * Estimated bytes a conversion holds a message (the core message, its parts, id and
 * original, and the values the next call is compared with): what a caller that keeps
 * conversions in a {@link ConversionSlot} adds to its entry's size.
 */
export const CONVERSION_MESSAGE_BYTES = HELD_MESSAGE_BYTES + SENT_MESSAGE_BYTES;

/** How many messages the conversion kept in `slot` holds (0 when none). */
export function slotMessages(slot: ConversionSlot): number {
  const conversion = slot.conversion as Conversion | undefined;
  return conversion === undefined ? 0 : conversionLength(conversion);
}

/** How many core messages the conversion kept in `slot` holds, not let go (0 when none). */
export function slotHeldMessages(slot: ConversionSlot): number {
  const conversion = slot.conversion as Conversion | undefined;
  return conversion === undefined ? 0 : heldMessages(conversion.system) + heldMessages(conversion.conversation);
}

/**
 * The conversions of one middleware or prepareStep function, at a cost that
 * grows with what is new rather than with the history. The AI SDK re-sends the
 * whole history as new objects on every call, so `toCore` remembers each
 * conversation's last conversion (keyed by its opening exchange) and, while the
 * incoming messages have the same content as the remembered ones
 * (`countResentMessages`: no hashing, a few identity checks a message against the
 * packed values kept of the last call), reuses those core messages and their ids;
 * only the messages after the first difference are converted and hashed.
 * `toHistory` gives the same conversion as a history source that copies nothing
 * and tells the session how many of its messages the last call's had, so a
 * session last brought in line with that one reads only the new messages.
 * `release` lets go of a conversion's core messages while its session holds the
 * history counted, not loaded: what stays is the packed values and ids, from
 * which a message is made again if the session asks for it.
 * `fromCore` hands back the incoming objects themselves for the messages core
 * kept where they were — the messages that end the context as they end the
 * conversion (identity checks only, from the end), and the pinned ones that
 * start both — so a context core left whole is the very prompt it was given,
 * not a copy; every other core message (what core wrote or changed) becomes
 * the AI SDK message it gave before (core messages are never modified in place).
 *
 * A caller that keeps each conversation's entry (the middleware and prepareStep:
 * the session registry's entry, which holds the session too) gives it as a
 * {@link ConversionSlot}: one entry a conversation, session and conversion
 * evicted together. Without a slot, conversations are kept in core's
 * `createConversationCache`, least recently used out first: in `memory`
 * (estimated bytes; by default the process's one budget), or past
 * `maxConversations` when given.
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
          sizeOf: (conversion) => heldMessagesBytes(conversionLength(conversion), CONVERSION_MESSAGE_BYTES),
        }
      : { maxBytes: maxConversations, sizeOf: () => 1 },
  );
  /** The AI SDK message of each core message `fromCore` had to convert (what core wrote or changed). */
  const aiSdkMessages = new WeakMap<Message, AiSdkMessage>();

  function aiSdkMessage(message: Message): AiSdkMessage {
    let converted = aiSdkMessages.get(message);
    if (converted === undefined) {
      converted = fromCoreMessage(message);
      aiSdkMessages.set(message, converted);
    }
    return converted;
  }

  function toHistory(messages: readonly AiSdkMessage[], slot: ConversionSlot | undefined): ConvertedHistory {
    const leading = leadingSystemMessages(messages);
    const key = slot === undefined ? openingKey(messages, leading) : '';
    const previous = slot === undefined ? recent.take(key) : (slot.conversion as Conversion | undefined);
    // The counts hold against the previous history only while its chains are as it saw them
    // (a conversion two entries keep may have been extended through the other one since).
    const current =
      previous !== undefined &&
      chainLength(previous.system) === previous.systemLength &&
      chainLength(previous.conversation) === previous.conversationLength;
    const system = convert(messages, 0, leading, SYSTEM_ID_PREFIX, previous?.system);
    const conversation = convert(messages, leading, messages.length, CONVERSATION_ID_PREFIX, previous?.conversation);
    const systemLength = chainLength(system.chain);
    const conversationLength = chainLength(conversation.chain);
    let unchanged = 0;
    if (current) {
      unchanged =
        system.same === previous.systemLength && systemLength === previous.systemLength
          ? systemLength + conversation.same
          : system.same;
    }
    const history = convertedHistory(
      system.chain,
      systemLength,
      conversation.chain,
      conversationLength,
      previous?.history,
      unchanged,
    );
    const conversion: Conversion = {
      system: system.chain,
      conversation: conversation.chain,
      history,
      systemLength,
      conversationLength,
      lastUser: lastUserIndex(messages, leading, messages.length) - leading,
    };
    if (slot === undefined) recent.put(key, conversion);
    else slot.conversion = conversion;
    return history;
  }

  return {
    toCore: (messages, slot) => toHistory(messages, slot).messages(0),
    toHistory,
    release(slot) {
      const conversion = slot.conversion as Conversion | undefined;
      if (conversion === undefined) return;
      // The system chain is compared in full (it holds no user message): its originals stay.
      releaseChain(conversion.system, 0);
      releaseChain(conversion.conversation, conversion.lastUser);
    },
    fromCore(messages, converted, incoming) {
      // Nothing here keeps a call's prompt past its call (a WeakMap from the converted array to
      // it made every scavenge keep 10,000-message prompts alive and age them into the old heap).
      if (converted === undefined || incoming === undefined || incoming.length !== converted.length)
        return messages.map(aiSdkMessage);
      // The kept messages end the context as they end the conversion: matched from the end by
      // identity, they are the incoming objects at the same places (one core message each).
      const kept = sameAtEnd(messages, converted);
      const end = messages.length - kept;
      const position = converted.length - kept;
      if (end === 0 && position === 0) return incoming as AiSdkMessage[]; // nothing changed: the prompt itself
      // The pinned messages start both.
      let front = 0;
      while (front < end && front < position && messages[front] === heldAt(converted, front)) front += 1;
      const back: AiSdkMessage[] = [];
      for (let index = 0; index < front; index += 1) back.push(incoming[index]!);
      for (let index = front; index < end; index += 1) back.push(aiSdkMessage(messages[index]!));
      for (let index = position; index < incoming.length; index += 1) back.push(incoming[index]!);
      return back;
    },
  };
}

/** `messages[start..end)` converted, reusing what `previous` holds of them; `same` is how many it held. */
function convert(
  messages: readonly AiSdkMessage[],
  start: number,
  end: number,
  prefix: string,
  previous: Chain | undefined,
): { chain: Chain; same: number } {
  const same = previous === undefined ? 0 : countResentMessages(messages, start, end, previous.sent);
  // The id the first changed message had: a sampled fingerprint may miss an edit, so
  // an edited message that hashes to it gets a full-content hash mixed in.
  const displacedId = previous !== undefined && same < chainLength(previous) ? chainId(previous, same) : undefined;
  // A chain is extended in place; one an edit cuts is copied up to the cut (the handed-out
  // histories over it keep reading what they read).
  const converted: Chain =
    previous === undefined ? newChain(prefix) : same < chainLength(previous) ? chainPrefix(previous, same) : previous;
  let id = same > 0 ? chainId(converted, same - 1) : undefined;
  for (let index = start + same; index < end; index += 1) {
    const message = messages[index]!;
    const previousId = id;
    id = nextContentId(message, previousId, prefix);
    if (index === start + same && id === displacedId) {
      const seed = previousId === undefined ? '' : previousId.slice(prefix.length);
      id = `${prefix}${hashString(JSON.stringify(message) ?? '', contentFingerprint(message, seed))}`;
    }
    appendToChain(converted, message, id, toCoreMessage(message, id, index));
  }
  return { chain: converted, same };
}

/** A message of a call's converted history as held, or as an array has it. */
function heldAt(converted: readonly Message[] | ConvertedHistory, index: number): Message | undefined {
  return Array.isArray(converted) ? converted[index] : (converted as ConvertedHistory).at(index);
}

/** How many messages end both `messages` and `converted`: the very same objects, counted from the end. */
function sameAtEnd(messages: readonly Message[], converted: readonly Message[] | ConvertedHistory): number {
  if (!Array.isArray(converted)) return (converted as ConvertedHistory).sameAtEnd(messages);
  let end = messages.length;
  let position = converted.length;
  while (end > 0 && position > 0 && messages[end - 1] === converted[position - 1]) {
    end -= 1;
    position -= 1;
  }
  return messages.length - end;
}

/** The content chain of the first two messages after the leading system messages (`''` when none). */
function openingKey(messages: readonly AiSdkMessage[], leading: number): string {
  let chain = '';
  const end = Math.min(messages.length, leading + 2);
  for (let index = leading; index < end; index += 1) chain = contentFingerprint(messages[index], chain);
  return chain;
}

function conversionLength(conversion: Conversion): number {
  return chainLength(conversion.system) + chainLength(conversion.conversation);
}
