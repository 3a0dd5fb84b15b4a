import type { Part } from '@compaction/core';
import type { MastraMessagePart, MastraToolInvocationPart } from '@mastra/core/agent/message-list';
import { modelOutput, reasoningText, toolOutput } from './part-to-core.js';

const MODEL_OUTPUT_TYPES: ReadonlySet<string> = new Set([
  'text',
  'json',
  'error-text',
  'error-json',
  'content',
  'execution-denied',
]);

/**
 * The Mastra part `original` with what core changed in its counterpart
 * `core` applied: a text, a tool call's input, a tool result's output (core
 * prunes old outputs to a marker). Returns `original` itself when nothing changed.
 */
export function applyCorePart(original: MastraMessagePart, core: Part): MastraMessagePart {
  switch (core.type) {
    case 'text':
      return original.type === 'text' && original.text !== core.text ? { ...original, text: core.text } : original;
    case 'reasoning':
      return original.type === 'reasoning' && reasoningText(original) !== core.text
        ? { ...original, reasoning: core.text, details: [{ type: 'text', text: core.text }] }
        : original;
    case 'tool-call':
      return original.type === 'tool-invocation' && original.toolInvocation.args !== core.input
        ? { ...original, toolInvocation: { ...original.toolInvocation, args: core.input } }
        : original;
    case 'tool-result':
      return original.type === 'tool-invocation' && toolOutput(original) !== core.output
        ? withToolOutput(original, core.output)
        : original;
    default:
      return original;
  }
}

/** A tool invocation with another output, written where the model reads it. */
function withToolOutput(part: MastraToolInvocationPart, output: unknown): MastraToolInvocationPart {
  const invocation = part.toolInvocation;
  if (invocation.state === 'result' && modelOutput(part) !== undefined) {
    const metadata = part.providerMetadata ?? {};
    const mastra = { ...metadata.mastra, modelOutput: asModelOutput(output) };
    return { ...part, providerMetadata: { ...metadata, mastra } as typeof metadata };
  }
  if (invocation.state === 'result') return { ...part, toolInvocation: { ...invocation, result: output } };
  return {
    ...part,
    toolInvocation: { ...invocation, errorText: typeof output === 'string' ? output : JSON.stringify(output) },
  };
}

/** A value as a tool-result output of the provider spec (`{ type, value }`). */
function asModelOutput(output: unknown): unknown {
  if (output && typeof output === 'object' && MODEL_OUTPUT_TYPES.has(String((output as { type?: unknown }).type))) {
    return output;
  }
  return typeof output === 'string' ? { type: 'text', value: output } : { type: 'json', value: output ?? null };
}

/**
 * A core part of a message core made (a summary, an acknowledgement) as a
 * Mastra part. Tool results are merged into their invocation by the caller.
 */
export function partFromCore(part: Part): MastraMessagePart | undefined {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'reasoning':
      return { type: 'reasoning', reasoning: part.text, details: [{ type: 'text', text: part.text }] };
    case 'file': {
      const data = typeof part.data === 'string' ? part.data : (part.url ?? '');
      return { type: 'file', mimeType: part.mediaType, data };
    }
    case 'tool-call':
      return {
        type: 'tool-invocation',
        toolInvocation: { state: 'call', toolCallId: part.toolCallId, toolName: part.toolName, args: part.input },
      };
    default:
      return undefined;
  }
}
