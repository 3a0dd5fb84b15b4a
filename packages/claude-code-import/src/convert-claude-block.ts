import type { FilePart, Part } from '@compaction/core';

type Block = Record<string, unknown>;

/**
 * A file part from a Claude `image` or `document` block. Base64 sources keep their
 * data; URL sources keep their URL.
 */
export function convertFileBlock(block: Block): FilePart {
  const source = (typeof block.source === 'object' && block.source !== null ? block.source : {}) as Block;
  const fallback = block.type === 'image' ? 'image/*' : 'application/octet-stream';
  const mediaType = typeof source.media_type === 'string' ? source.media_type : fallback;
  const part: FilePart = { type: 'file', mediaType };
  if (typeof source.url === 'string') part.url = source.url;
  else if (source.data !== undefined) part.data = source.data;
  if (typeof block.title === 'string') part.filename = block.title;
  return part;
}

/**
 * Converts one content block of a Claude assistant reply: `text` → text part,
 * `thinking` → reasoning part (the signature is dropped), `tool_use` → tool-call part.
 * Returns `{ problem }` for any other block or a block missing its fields.
 */
export function convertAssistantBlock(block: Block): Part | { problem: string } {
  switch (block.type) {
    case 'text':
      if (typeof block.text === 'string') return { type: 'text', text: block.text };
      break;
    case 'thinking':
      if (typeof block.thinking === 'string') return { type: 'reasoning', text: block.thinking };
      break;
    case 'tool_use':
      if (typeof block.id === 'string' && typeof block.name === 'string') {
        return { type: 'tool-call', toolCallId: block.id, toolName: block.name, input: block.input ?? {} };
      }
      break;
    default:
      return { problem: `unsupported assistant content block "${String(block.type)}" (skipped)` };
  }
  return { problem: `assistant "${String(block.type)}" block is missing its fields (skipped)` };
}

/**
 * The output of a Claude `tool_result` block: its string content as is, or the text of
 * its content blocks joined by newlines. Images and other blocks become a short note
 * such as `[image: image/png]`, since a tool result's output holds no file parts.
 */
export function toolResultOutput(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block: Block) => {
      if (block?.type === 'text' && typeof block.text === 'string') return block.text;
      if (block?.type === 'image' || block?.type === 'document') {
        return `[${block.type}: ${convertFileBlock(block).mediaType}]`;
      }
      return `[${String(block?.type)} block]`;
    })
    .join('\n');
}
