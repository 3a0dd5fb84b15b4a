import type { FilePart, Part } from '@compaction/core';
import type { PromptPart, PromptProviderOptions } from './ai-sdk-types.js';
import { isTaggedFileData } from './part-to-core.js';
import { toolOutputFromCore } from './tool-result-output.js';

/**
 * A core part as an AI SDK prompt part (also a valid `ModelMessage` part). Used
 * for the parts core wrote or changed — its summary, pruned tool outputs,
 * synthetic results; parts core left alone go back as the original objects.
 */
export function partFromCore(part: Part): PromptPart {
  const providerOptions: { providerOptions?: PromptProviderOptions } =
    part.providerOptions === undefined ? {} : { providerOptions: part.providerOptions as PromptProviderOptions };
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return { type: part.type, text: part.text, ...providerOptions } as PromptPart;
    case 'file':
      return {
        type: 'file',
        mediaType: part.mediaType,
        data: fileDataFromCore(part),
        ...(part.filename !== undefined ? { filename: part.filename } : {}),
        ...providerOptions,
      } as PromptPart;
    case 'tool-call':
      return {
        type: 'tool-call',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        input: part.input,
        ...providerOptions,
      };
    case 'tool-result':
      return {
        type: 'tool-result',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        output: toolOutputFromCore(part.output, part.isError),
        ...providerOptions,
      };
  }
}

function fileDataFromCore(part: FilePart): unknown {
  if (isTaggedFileData(part.data)) return part.data;
  if (part.url !== undefined && part.data === undefined) return { type: 'url', url: new URL(part.url) };
  if (typeof part.data === 'string' || ArrayBuffer.isView(part.data)) return { type: 'data', data: part.data };
  if (typeof part.data === 'object' && part.data !== null) return { type: 'reference', reference: part.data };
  return { type: 'text', text: '' };
}
