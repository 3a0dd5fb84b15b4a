import type { LanguageModelV4Prompt, LanguageModelV4ToolResultOutput } from '@ai-sdk/provider';
import type { Message, Part } from '@compaction/core';

type PromptPart = Exclude<LanguageModelV4Prompt[number]['content'], string>[number];

function toolOutput(output: LanguageModelV4ToolResultOutput): { output: unknown; isError: boolean } {
  switch (output.type) {
    case 'text':
    case 'json':
      return { output: output.value, isError: false };
    case 'error-text':
    case 'error-json':
      return { output: output.value, isError: true };
    case 'execution-denied':
      return { output: output.reason ?? 'execution denied', isError: true };
    default:
      return { output: output.value, isError: false };
  }
}

function fileData(data: unknown): unknown {
  if (typeof data !== 'object' || data === null) return data;
  const tagged = data as { type?: string; data?: unknown; text?: string; url?: unknown };
  if (tagged.type === 'data') return tagged.data;
  if (tagged.type === 'text') return tagged.text;
  return undefined;
}

function toCorePart(part: PromptPart): Part | undefined {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'reasoning':
      return { type: 'reasoning', text: part.text };
    case 'tool-call':
      return { type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
    case 'tool-result':
      return { type: 'tool-result', toolCallId: part.toolCallId, toolName: part.toolName, ...toolOutput(part.output) };
    case 'file':
      return { type: 'file', mediaType: part.mediaType, data: fileData(part.data) };
    default:
      return undefined;
  }
}

/**
 * The AI SDK provider prompt a model received, as core messages, so that core's
 * counter can measure it: tool outputs are unwrapped (`{ type: 'text', value }` → `value`)
 * and parts core has no shape for (custom, approval responses) are left out.
 */
export function aiSdkPromptToCore(prompt: LanguageModelV4Prompt): Message[] {
  return prompt.map((message, index) => {
    const parts: Part[] =
      message.role === 'system'
        ? [{ type: 'text', text: message.content }]
        : (message.content as PromptPart[]).flatMap((part) => toCorePart(part) ?? []);
    return { id: `prompt-${index}`, role: message.role, parts };
  });
}
