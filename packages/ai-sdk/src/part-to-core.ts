import type { Part } from '@compaction/core';
import type { ModelMessagePart, PromptPart } from './ai-sdk-types.js';
import { toolOutputToCore } from './tool-result-output.js';

/** A content part of either AI SDK message shape: the provider prompt or `ModelMessage`. */
export type AiSdkPart = PromptPart | ModelMessagePart;

/**
 * The core view of an AI SDK content part: what core counts, summarizes and
 * cuts by. Lossy on purpose (file data is unwrapped, tool outputs are bare
 * values); the adapter keeps the original part to send it back unchanged.
 * Parts core has no notion of (`custom`, tool approval requests and responses)
 * give `undefined`: they ride along with their message, untouched.
 */
export function partToCore(part: AiSdkPart): Part | undefined {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return withProviderOptions({ type: part.type, text: part.text }, part.providerOptions);
    case 'file':
    case 'reasoning-file':
      return withProviderOptions(
        fileToCore(part.mediaType, part.data, 'filename' in part ? part.filename : undefined),
        part.providerOptions,
      );
    case 'image':
      return withProviderOptions(fileToCore(part.mediaType ?? 'image', part.image, undefined), part.providerOptions);
    case 'tool-call':
      return withProviderOptions(
        { type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input },
        part.providerOptions,
      );
    case 'tool-result':
      return withProviderOptions(
        { type: 'tool-result', toolCallId: part.toolCallId, toolName: part.toolName, ...toolOutputToCore(part.output) },
        part.providerOptions,
      );
    default:
      return undefined;
  }
}

function fileToCore(mediaType: string, data: unknown, filename: string | undefined): Part {
  const { content, url } = unwrapFileData(data);
  return {
    type: 'file',
    mediaType,
    ...(content !== undefined ? { data: content } : {}),
    ...(url !== undefined ? { url } : {}),
    ...(filename !== undefined ? { filename } : {}),
  };
}

/** Bytes, base64 or text as `data` (text files are counted as text); a URL as `url`. */
function unwrapFileData(data: unknown): { content?: unknown; url?: string } {
  if (data instanceof URL) return { url: data.href };
  if (!isTaggedFileData(data)) return { content: data };
  switch (data.type) {
    case 'url':
      return { url: String(data.url) };
    case 'text':
      return { content: data.text };
    case 'data':
      return { content: data.data };
    default:
      return { content: data.reference };
  }
}

type TaggedFileData =
  | { type: 'data'; data: unknown }
  | { type: 'url'; url: URL | string }
  | { type: 'reference'; reference: unknown }
  | { type: 'text'; text: string };

/** The V4 tagged file data (`{ type: 'data' | 'url' | 'reference' | 'text', … }`). */
export function isTaggedFileData(data: unknown): data is TaggedFileData {
  if (typeof data !== 'object' || data === null || data instanceof URL || ArrayBuffer.isView(data)) return false;
  const type = (data as { type?: unknown }).type;
  return type === 'data' || type === 'url' || type === 'reference' || type === 'text';
}

function withProviderOptions<T extends Part>(part: T, providerOptions: Part['providerOptions'] | undefined): T {
  return providerOptions === undefined ? part : { ...part, providerOptions };
}
