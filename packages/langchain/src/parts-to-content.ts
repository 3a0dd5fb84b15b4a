import type { Part } from '@compaction/core';
import type { MessageContent } from '@langchain/core/messages';

/**
 * Core parts (text, reasoning, file) as LangChain message content: a string for
 * no part or one non-empty text part, else standard content blocks (`text`, `reasoning`,
 * `image`/`audio`/`video`/`file` with `url` or `data` and `mimeType`).
 * Tool calls and results are not content in LangChain and are skipped here.
 */
export function partsToContent(parts: readonly Part[]): MessageContent {
  const content = parts.filter((part) => part.type === 'text' || part.type === 'reasoning' || part.type === 'file');
  if (content.length === 0) return '';
  const only = content.length === 1 ? content[0]! : undefined;
  if (only?.type === 'text' && only.text !== '') return only.text;
  return content.map((part) => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    if (part.type === 'reasoning') return { type: 'reasoning', reasoning: part.text };
    const file = part as Extract<Part, { type: 'file' }>;
    const kind = mediaKind(file.mediaType);
    return {
      type: kind,
      mimeType: file.mediaType,
      ...(file.url !== undefined ? { url: file.url } : {}),
      ...(file.data !== undefined ? { data: file.data } : {}),
      ...(file.filename !== undefined ? { filename: file.filename } : {}),
    };
  }) as MessageContent;
}

/** A tool result's output as ToolMessage content: strings and block arrays as they are, anything else as JSON. */
export function outputToContent(output: unknown): MessageContent {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output as MessageContent;
  return JSON.stringify(output) ?? '';
}

function mediaKind(mediaType: string): 'image' | 'audio' | 'video' | 'file' {
  const kind = mediaType.split('/')[0];
  return kind === 'image' || kind === 'audio' || kind === 'video' ? kind : 'file';
}
