import type { Message, Part } from '../messages/types.js';
import { IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS } from './count-message-tokens.js';
import { splitMedia } from './split-media.js';

/** A string's UTF-8 bytes are at most three per UTF-16 unit. */
const BYTES_PER_UNIT = 3;

function textBound(value: unknown): number {
  if (typeof value === 'string') return value.length * BYTES_PER_UNIT;
  if (value === undefined) return 0;
  return (JSON.stringify(value)?.length ?? 0) * BYTES_PER_UNIT;
}

function partBound(part: Part): number {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return textBound(part.text);
    case 'tool-call':
      return textBound(part.toolName) + textBound(part.input);
    case 'tool-result': {
      // Media inside the output counts a flat image cost in countMessageTokens: bound it the same way.
      const output = splitMedia(part.output);
      return textBound(part.toolName) + textBound(output.text) + output.mediaCount * IMAGE_TOKENS;
    }
    case 'file':
      return Math.max(IMAGE_TOKENS, typeof part.data === 'string' ? textBound(part.data) : 0);
    default:
      return 0;
  }
}

/**
 * A strict upper bound of `countMessageTokens` for byte-level BPE counters
 * (tiktoken, gpt-tokenizer) and the chars/4 heuristic: every token covers at
 * least one UTF-8 byte, and a UTF-16 unit is at most three bytes. Costs a pass
 * over the parts, not over the text; sessions use it to skip exact counting on
 * calls far below the trigger.
 */
export function maxMessageTokens(message: Message): number {
  let bound = MESSAGE_OVERHEAD_TOKENS;
  for (const part of message.parts) bound += partBound(part);
  return bound;
}
