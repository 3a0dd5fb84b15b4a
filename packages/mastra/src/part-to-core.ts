import type { Part, ToolResultPart } from '@compaction/core';
import type { MastraMessagePart, MastraToolInvocationPart } from '@mastra/core/agent/message-list';

/** What a denied tool call shows as its result when Mastra stored no text for it. */
export const DENIED_OUTPUT = 'The tool call was denied.';

type ReasoningLike = { reasoning?: unknown; details?: unknown };

/** The text of a Mastra reasoning part: `reasoning`, or its text details when that is empty. */
export function reasoningText(part: ReasoningLike): string {
  if (typeof part.reasoning === 'string' && part.reasoning) return part.reasoning;
  if (!Array.isArray(part.details)) return '';
  return part.details
    .filter(
      (detail): detail is { type: 'text'; text: string } => detail?.type === 'text' && typeof detail.text === 'string',
    )
    .map((detail) => detail.text)
    .join('');
}

/**
 * A Mastra part as the core part the model reads (`text`, `reasoning`, `file`,
 * and a tool invocation as its `tool-call`); undefined for parts with no core
 * counterpart (`step-start`, `data-*`, sources, errors), which are carried in
 * metadata instead.
 */
export function partToCore(part: MastraMessagePart): Part | undefined {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'reasoning':
      return { type: 'reasoning', text: reasoningText(part) };
    case 'file':
      return { type: 'file', mediaType: part.mimeType ?? 'application/octet-stream', data: part.data };
    case 'tool-invocation': {
      const { toolCallId, toolName, args } = part.toolInvocation;
      return { type: 'tool-call', toolCallId, toolName, input: args };
    }
    default:
      return undefined;
  }
}

/** The stored `toModelOutput` of a tool result, which Mastra sends instead of the raw result. */
export function modelOutput(part: MastraToolInvocationPart): unknown {
  const mastra = part.providerMetadata?.mastra as Record<string, unknown> | undefined;
  return mastra?.modelOutput ?? undefined;
}

/**
 * What the model reads as a tool invocation's result: the stored model output,
 * else the result; the error text of a failed call; a fixed text for a denied
 * one. The same value (by reference) on every call, so a changed output is
 * recognised by `!==`. Undefined while the call has no result.
 */
export function toolOutput(part: MastraToolInvocationPart): unknown {
  const invocation = part.toolInvocation;
  switch (invocation.state) {
    case 'result':
      return modelOutput(part) ?? invocation.result;
    case 'output-error':
      return invocation.errorText ?? '';
    case 'output-denied':
      return invocation.errorText ?? DENIED_OUTPUT;
    default:
      return undefined;
  }
}

/** Whether a tool invocation has a result (or an error or denial standing for one). */
export function hasToolOutput(part: MastraToolInvocationPart): boolean {
  const { state } = part.toolInvocation;
  return state === 'result' || state === 'output-error' || state === 'output-denied';
}

/** A finished tool invocation as the core `tool-result`. */
export function toolResultToCore(part: MastraToolInvocationPart): ToolResultPart {
  const { toolCallId, toolName, state, isError } = part.toolInvocation;
  const failed = state === 'output-error' || state === 'output-denied' || isError === true;
  return { type: 'tool-result', toolCallId, toolName, output: toolOutput(part), ...(failed ? { isError: true } : {}) };
}
