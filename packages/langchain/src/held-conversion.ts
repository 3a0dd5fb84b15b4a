import type { Message } from '@compaction/core';
import type { BaseMessage } from '@langchain/core/messages';
import type { Conversion } from './extend-conversion.js';
import { messageClassCode } from './message-class-code.js';
import { toCoreMessages } from './to-core-messages.js';

/**
 * Lets go of every core message a conversion holds (after the session answered that the
 * context is the history as it is, `asIs`: it holds the history counted, not loaded, and
 * reads no old message unless it loads). The LangChain messages stay, so the next call
 * still proves by identity that the history only grew, and the next run of a restored
 * thread matches them by id and class (kept here, incrementally: only the messages added since); what was let go is converted again from them only when core
 * asks for it ({@link loadConversion}), as Mastra's conversion cache does (`release()`).
 */
export function releaseConversion(conversion: Conversion<BaseMessage, Message>): void {
  const { source } = conversion;
  // The ids of the messages added since the last release (the first ones were kept then, or proven the same since).
  const ids = conversion.ids ?? [];
  conversion.ids = ids;
  let classes = conversion.classes ?? new Uint8Array(0);
  if (classes.length < source.length) {
    const grown = new Uint8Array(Math.ceil(source.length * 1.25) + 8);
    grown.set(classes.subarray(0, ids.length));
    classes = grown;
  }
  for (let index = ids.length; index < source.length; index += 1) {
    const message = source[index]!;
    classes[index] = messageClassCode(message.constructor);
    // Only an id of its own is kept (a restored message is matched to it by `===` alone); undefined matches nothing.
    const id = message.id;
    ids.push(typeof id === 'string' && id.length > 0 ? id : undefined);
  }
  conversion.classes = classes;
  conversion.released = source.length;
  conversion.result = [];
}

/**
 * Converts again the messages {@link releaseConversion} let go, from the LangChain messages
 * the conversion holds now — a restored thread's own objects, so an edit made under an id
 * is taken exactly as a fresh conversion (`toCoreMessages`) takes it — and puts them back in
 * front of `result`. Nothing to do when nothing was let go.
 */
export function loadConversion(conversion: Conversion<BaseMessage, Message>): void {
  const released = conversion.released ?? 0;
  if (released === 0) return;
  const loaded = toCoreMessages(conversion.source.slice(0, released));
  for (const message of conversion.result) loaded.push(message);
  conversion.result = loaded;
  conversion.released = 0;
}
