import type {
  LanguageModelV4,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import type { Message } from '@compaction/core';
import { aiSdkPromptToCore } from './ai-sdk-prompt-to-core.js';
import { type RecordedReplies, type RecordedRepliesOptions, recordedReplies } from './recorded-replies.js';

/** Options of {@link aiSdkReplayModel}. */
export type AiSdkReplayModelOptions = RecordedRepliesOptions & {
  /** @default 'replay' */
  modelId?: string;
  /** @default 'compaction-replay' */
  provider?: string;
};

function toContent(message: Message): LanguageModelV4Content[] {
  return message.parts.flatMap((part): LanguageModelV4Content[] => {
    if (part.type === 'text') return [{ type: 'text', text: part.text }];
    if (part.type === 'reasoning') return [{ type: 'reasoning', text: part.text }];
    if (part.type === 'tool-call') {
      return [
        {
          type: 'tool-call',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: JSON.stringify(part.input ?? {}),
        },
      ];
    }
    return [];
  });
}

function toUsage(inputTokens: number, outputTokens: number): LanguageModelV4Usage {
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
  };
}

function toStreamParts(result: LanguageModelV4GenerateResult): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  for (const [index, content] of result.content.entries()) {
    const id = `part-${index}`;
    if (content.type === 'text') {
      parts.push({ type: 'text-start', id }, { type: 'text-delta', id, delta: content.text }, { type: 'text-end', id });
    } else if (content.type === 'reasoning') {
      parts.push(
        { type: 'reasoning-start', id },
        { type: 'reasoning-delta', id, delta: content.text },
        { type: 'reasoning-end', id },
      );
    } else if (content.type === 'tool-call') {
      parts.push(
        { type: 'tool-input-start', id: content.toolCallId, toolName: content.toolName },
        { type: 'tool-input-delta', id: content.toolCallId, delta: content.input },
        { type: 'tool-input-end', id: content.toolCallId },
        content,
      );
    }
  }
  parts.push({ type: 'finish', usage: result.usage, finishReason: result.finishReason });
  return parts;
}

/**
 * An AI SDK language model (`LanguageModelV4`) that replays a recording: each call
 * (generate or stream) is answered with the next recorded assistant message, and its
 * usage is computed from the prompt the model actually received, so wrapping it with a
 * compaction middleware shows what compaction sent and saved. Useful for testing your
 * own compaction settings on your own recordings.
 *
 * @example
 * ```ts
 * const model = wrapLanguageModel({ model: aiSdkReplayModel(session.messages), middleware });
 * ```
 */
export function aiSdkReplayModel(
  source: RecordedReplies | readonly Message[],
  options: AiSdkReplayModelOptions = {},
): LanguageModelV4 {
  const replies = 'next' in source ? source : recordedReplies(source, options);
  async function generate(prompt: Parameters<LanguageModelV4['doGenerate']>[0]['prompt']) {
    const { message, usage } = replies.next(aiSdkPromptToCore(prompt));
    const content = toContent(message);
    const hasToolCalls = content.some((part) => part.type === 'tool-call');
    const result: LanguageModelV4GenerateResult = {
      content,
      finishReason: hasToolCalls ? { unified: 'tool-calls', raw: 'tool_use' } : { unified: 'stop', raw: 'end_turn' },
      usage: toUsage(usage.inputTokens, usage.outputTokens),
      response: { id: message.id, modelId: options.modelId ?? 'replay' },
      warnings: [],
    };
    return result;
  }
  return {
    specificationVersion: 'v4',
    provider: options.provider ?? 'compaction-replay',
    modelId: options.modelId ?? 'replay',
    supportedUrls: {},
    doGenerate: (callOptions) => generate(callOptions.prompt),
    async doStream(callOptions) {
      const parts = toStreamParts(await generate(callOptions.prompt));
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      });
      return { stream };
    },
  };
}
