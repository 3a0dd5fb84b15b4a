import type { Message, Part } from '../messages/types.js';
import { splitMedia } from './split-media.js';
import type { TokenCounter } from './token-counter.js';

/**
 * Tokens added to every message for its role and the chat template's delimiters
 * (OpenAI's published rule of thumb is 3–4 per message).
 */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/**
 * Tokens counted for an image, and for any file whose content is not counted as
 * text. 1,600 is about what a ~1.1 megapixel image costs at high detail: Claude bills
 * width × height / 750 tokens (1092 × 1092 ≈ 1,590) and OpenAI's high-detail
 * tiling lands in the same range (a 1024 × 1024 image is 765; a 2048 × 1152 one
 * 1,105). Images are usually resized to about that size before they reach a model.
 */
export const IMAGE_TOKENS = 1_600;

/** JSON for counting: `undefined` counts as nothing, unserializable values by `String()`. */
function jsonForCount(value: unknown): string {
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

/**
 * Tokens of one part, by the rule documented on {@link countMessageTokens}
 * (without the per-message overhead).
 */
export function countPartTokens(part: Part, counter: TokenCounter): number {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return counter.countText(part.text);
    case 'tool-call':
      return counter.countText(part.toolName) + counter.countText(jsonForCount(part.input));
    case 'tool-result': {
      const output = splitMedia(part.output);
      return counter.countText(part.toolName) + counter.countText(output.text) + output.mediaCount * IMAGE_TOKENS;
    }
    case 'file':
      if (part.mediaType.startsWith('text/') && typeof part.data === 'string') return counter.countText(part.data);
      return IMAGE_TOKENS;
    default:
      return 0;
  }
}

/**
 * Tokens one message adds to a model's context, by a fixed documented rule:
 *
 * - {@link MESSAGE_OVERHEAD_TOKENS} (4) per message;
 * - `text` and `reasoning` parts: their text;
 * - `tool-call`: the tool name plus the JSON of its `input`;
 * - `tool-result`: the tool name plus the `output` (a string as-is, anything else as JSON),
 *   except that each image or file inside it (a `media` / `image-data` / `file-data` content
 *   part, an `image_url` or `image` block, a base64 `data:` URL, at any depth) counts
 *   {@link IMAGE_TOKENS} instead of its base64 text, as a provider bills it;
 * - `file`: a `text/*` file whose `data` is a string is counted as text; every other
 *   file (images, PDFs, binary data, URLs) counts a flat {@link IMAGE_TOKENS} (1,600).
 *
 * Providers' real counts differ (their tokenizers, chat templates, tool schemas);
 * `estimateContextTokens` corrects for that with reported usage and a calibration ratio.
 *
 * @example
 * ```ts
 * countMessageTokens({ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hello world' }] }, tiktokenCounter());
 * // 4 + 2 = 6
 * ```
 */
export function countMessageTokens(message: Message, counter: TokenCounter): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS;
  for (const part of message.parts) tokens += countPartTokens(part, counter);
  return tokens;
}
