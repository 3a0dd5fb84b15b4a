import { describeValue, InvalidMessageError, type Part } from '@compaction/core';
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
 *
 * @param messageIndex - where the part's message is in the prompt, for the error.
 * @default messageIndex 0
 * @throws InvalidMessageError when the part is no object, a tool result's output is not
 *   the AI SDK's tagged output, or a file's `{ type: 'url', url }` is not an absolute URL
 *   (the message would have to be rebuilt with `new URL(url)` when core changes it).
 */
export function partToCore(part: AiSdkPart, messageIndex = 0): Part | undefined {
  if (typeof part !== 'object' || part === null) {
    throw new InvalidMessageError({
      index: messageIndex,
      problem: `a content part must be an object with a type ({ type: 'text', text }, …), got ${describeValue(part)}`,
    });
  }
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return withProviderOptions({ type: part.type, text: part.text }, part.providerOptions);
    case 'file':
    case 'reasoning-file':
      return withProviderOptions(
        fileToCore(part.mediaType, part.data, 'filename' in part ? part.filename : undefined, messageIndex),
        part.providerOptions,
      );
    case 'image':
      return withProviderOptions(
        fileToCore(part.mediaType ?? 'image', part.image, undefined, messageIndex),
        part.providerOptions,
      );
    case 'tool-call':
      return withProviderOptions(
        { type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input },
        part.providerOptions,
      );
    case 'tool-result':
      checkToolOutput(part.output, messageIndex);
      return withProviderOptions(
        { type: 'tool-result', toolCallId: part.toolCallId, toolName: part.toolName, ...toolOutputToCore(part.output) },
        part.providerOptions,
      );
    default:
      return undefined;
  }
}

function fileToCore(mediaType: string, data: unknown, filename: string | undefined, messageIndex: number): Part {
  const { content, url } = unwrapFileData(data, messageIndex);
  return {
    type: 'file',
    mediaType,
    ...(content !== undefined ? { data: content } : {}),
    ...(url !== undefined ? { url } : {}),
    ...(filename !== undefined ? { filename } : {}),
  };
}

/** Bytes, base64 or text as `data` (text files are counted as text); a URL as `url`. */
function unwrapFileData(data: unknown, messageIndex: number): { content?: unknown; url?: string } {
  if (data instanceof URL) return { url: data.href };
  if (!isTaggedFileData(data)) return { content: data };
  switch (data.type) {
    case 'url':
      return { url: fileUrl(data.url, messageIndex) };
    case 'text':
      return { content: data.text };
    case 'data':
      return { content: data.data };
    default:
      return { content: data.reference };
  }
}

/** A tool result's output is the AI SDK's tagged value (`{ type: 'text', value }`, …); anything else is refused. */
function checkToolOutput(output: unknown, messageIndex: number): void {
  if (typeof output === 'object' && output !== null && typeof (output as { type?: unknown }).type === 'string') return;
  throw new InvalidMessageError({
    index: messageIndex,
    problem: `a tool result's output must be the AI SDK's tagged output ({ type: 'text', value } or { type: 'json', value }, …), got ${describeValue(output)}`,
  });
}

/** A file's URL as text: a `URL`, or a string that parses as an absolute URL; anything else is refused. */
function fileUrl(url: unknown, messageIndex: number): string {
  if (url instanceof URL) return url.href;
  if (typeof url === 'string' && URL.canParse(url)) return url;
  throw new InvalidMessageError({
    index: messageIndex,
    problem: `a file part's data { type: 'url', url } must hold an absolute URL (a URL object or a string like "https://…"), got ${describeValue(url)}; give the file's bytes or base64 as { type: 'data', data } instead`,
  });
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
