/** A `data:` URL holding base64 content (an inlined image or file). */
const DATA_URL = /^data:[\w.+-]+\/[\w.+-]+(?:;[\w.+-]+=[\w.+-]+)*;base64,/i;

/**
 * Content part types that carry media rather than text, across the AI SDK
 * (`media`, `image-data`, `file-data`, `image-url`, `file-url`, `image-file-id`, …),
 * LangChain / OpenAI (`image_url`, `input_image`, `input_file`, `input_audio`) and
 * Anthropic (`image`, `document`).
 */
const MEDIA_TYPE = /^(?:media|image|file|audio|video|document|input[_-](?:image|file|audio))(?:$|[_-])/i;

/** In JSON text: a part whose type reads like media, or a string that starts as a data URL. Never misses either. */
const MEDIA_SIGN = /"type":"(?:media|image|file|audio|video|document|input[_-](?:image|file|audio))|"data:[\w.+-]+\//i;

/** Keys of which a media part holds at least one: its content, where it is, or what it is. */
const PAYLOAD_KEYS = [
  'data',
  'url',
  'image_url',
  'source',
  'mediaType',
  'mimeType',
  'media_type',
  'mime_type',
  'file_id',
  'fileId',
  'file_data',
  'input_audio',
] as const;

/** What {@link splitMedia} found in a value. */
export type SplitMedia = {
  /** The value as JSON with every media item left out (a string value as it is). */
  text: string;
  /** How many media items (images, files, audio, data URLs) it holds. */
  mediaCount: number;
};

/** Whether `value` is one media item: a media content part or a base64 `data:` URL. */
export function isMediaValue(value: unknown): boolean {
  if (typeof value === 'string') return value.length > 5 && value.charCodeAt(0) === 100 && DATA_URL.test(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string' || !MEDIA_TYPE.test(type)) return false;
  // `{ type: 'file', name: 'a.ts' }` in a directory listing is text; a media item carries its content or a reference.
  for (const key of PAYLOAD_KEYS) if ((value as Record<string, unknown>)[key] !== undefined) return true;
  return false;
}

/**
 * Separates the media inside a tool output (or any value) from its text: images and
 * files inside `{ type: 'content', value: [{ type: 'media', … }] }`, AI SDK
 * `image-data` / `file-data` parts, LangChain `image_url` blocks, Anthropic `image`
 * blocks and base64 `data:` URLs, at any depth. Token counts then charge each media
 * item a flat image cost instead of counting its base64 payload as text — the way a
 * provider bills an image wherever it sits. Never throws: a value JSON cannot encode
 * is rendered with `String()`.
 *
 * @example
 * ```ts
 * splitMedia({ type: 'content', value: [{ type: 'text', text: 'shot' }, { type: 'media', mediaType: 'image/png', data: '…' }] });
 * // { text: '{"type":"content","value":[{"type":"text","text":"shot"},""]}', mediaCount: 1 }
 * ```
 */
export function splitMedia(value: unknown): SplitMedia {
  if (typeof value === 'string')
    return isMediaValue(value) ? { text: '', mediaCount: 1 } : { text: value, mediaCount: 0 };
  if (value === undefined) return { text: '', mediaCount: 0 };
  let mediaCount = 0;
  try {
    // Most outputs hold no media: one plain serialization and a scan for a sign of it.
    const plain = JSON.stringify(value) ?? '';
    if (!MEDIA_SIGN.test(plain)) return { text: plain, mediaCount: 0 };
    const text =
      JSON.stringify(value, (_key, item: unknown) => {
        if (!isMediaValue(item)) return item;
        mediaCount += 1;
        return '';
      }) ?? '';
    return { text, mediaCount };
  } catch {
    return { text: safeString(value), mediaCount };
  }
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return '';
  }
}
