import type { Part } from '@compaction/core';

/** A LangChain content block, read loosely: providers add their own block types. */
export type ContentBlockLike = { type?: unknown; [key: string]: unknown };

/**
 * One LangChain content block as a core part, or `undefined` for blocks core
 * does not model (provider-specific blocks, and tool-call blocks, which core
 * reads from `tool_calls`). Those ride along untouched: see `fromCoreMessages`.
 *
 * - `text` → text; `reasoning` and Anthropic's `thinking` → reasoning;
 * - `image_url` (OpenAI chat format) and the standard `image`, `audio`, `video`,
 *   `file` blocks (url or inline data) → file.
 */
export function blockToPart(block: unknown): Part | undefined {
  if (typeof block === 'string') return { type: 'text', text: block };
  if (typeof block !== 'object' || block === null) return undefined;
  const fields = block as ContentBlockLike;
  switch (fields.type) {
    case 'text':
      return typeof fields.text === 'string' ? { type: 'text', text: fields.text } : undefined;
    case 'reasoning':
      return typeof fields.reasoning === 'string' ? { type: 'reasoning', text: fields.reasoning } : undefined;
    case 'thinking':
      return typeof fields.thinking === 'string' ? { type: 'reasoning', text: fields.thinking } : undefined;
    case 'image_url': {
      const image = fields.image_url;
      const url = typeof image === 'string' ? image : (image as { url?: unknown } | undefined)?.url;
      return typeof url === 'string' ? { type: 'file', mediaType: dataUrlMediaType(url) ?? 'image/*', url } : undefined;
    }
    case 'image':
    case 'audio':
    case 'video':
    case 'file':
      return mediaPart(fields, fields.type);
    default:
      return undefined;
  }
}

function mediaPart(block: ContentBlockLike, kind: string): Part | undefined {
  const mimeType = block.mimeType ?? block.mime_type;
  const url = typeof block.url === 'string' ? block.url : undefined;
  const data = block.data;
  if (url === undefined && data === undefined) return undefined;
  const mediaType =
    typeof mimeType === 'string'
      ? mimeType
      : ((url && dataUrlMediaType(url)) ?? (kind === 'file' ? 'application/octet-stream' : `${kind}/*`));
  return {
    type: 'file',
    mediaType,
    ...(url !== undefined ? { url } : {}),
    ...(data !== undefined ? { data } : {}),
    ...(typeof block.filename === 'string' ? { filename: block.filename } : {}),
  };
}

function dataUrlMediaType(url: string): string | undefined {
  const match = /^data:([^;,]+)[;,]/.exec(url);
  return match?.[1];
}
