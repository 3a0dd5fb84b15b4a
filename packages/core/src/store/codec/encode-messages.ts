import { InvalidMessageError } from '../../errors/invalid-message-error.js';
import { parseMessages } from '../../messages/parse-messages.js';
import type { Message } from '../../messages/types.js';
import { StoreError } from '../errors/store-error.js';
import { encodeValue, UnstorableValueError } from './encode-value.js';

/**
 * Checks and serializes messages for an append, before anything is written:
 * one JSON text per message (see `encodeValue` for `Uint8Array` and `Date`).
 *
 * @param messages - The messages to append.
 * @param source - The file or key they go to, named in the error.
 * @throws StoreError (operation `appendHistory`) naming the message and the
 *   path of the value that cannot be stored, or what makes it no message.
 */
export function encodeMessages(messages: readonly Message[], source: string): string[] {
  try {
    parseMessages(messages);
  } catch (error) {
    if (!InvalidMessageError.isInstance(error)) throw error;
    throw new StoreError({
      operation: 'appendHistory',
      source,
      problem: `nothing was appended: ${error.message}`,
      cause: error,
    });
  }
  return messages.map((message, index) => {
    try {
      return JSON.stringify(encodeValue(message));
    } catch (error) {
      if (!(error instanceof UnstorableValueError)) throw error;
      throw new StoreError({
        operation: 'appendHistory',
        source,
        problem:
          `nothing was appended: message ${index} ("${message.id}"): ${error.message}. ` +
          'Convert the value to plain JSON data before appending',
        cause: error,
      });
    }
  });
}
