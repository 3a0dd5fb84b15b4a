import type { Message } from '@compaction/core';
import { BaseChatModel, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { langChainMessagesToCore } from './langchain-messages-to-core.js';
import { type RecordedReplies, type RecordedRepliesOptions, recordedReplies } from './recorded-replies.js';

function toAiMessage(message: Message, inputTokens: number, outputTokens: number): AIMessage {
  const text = message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
  const toolCalls = message.parts.flatMap((part) =>
    part.type === 'tool-call'
      ? [
          {
            id: part.toolCallId,
            name: part.toolName,
            args: (part.input ?? {}) as Record<string, unknown>,
            type: 'tool_call' as const,
          },
        ]
      : [],
  );
  return new AIMessage({
    id: message.id,
    content: text,
    tool_calls: toolCalls,
    usage_metadata: {
      input_tokens: inputTokens,
      output_tokens: outputTokens,
      total_tokens: inputTokens + outputTokens,
    },
    response_metadata: { model_provider: 'compaction-replay' },
  });
}

/**
 * A LangChain chat model that replays a recording: each call is answered with the next
 * recorded assistant message (its text and tool calls), with `usage_metadata` computed
 * from the messages the model actually received, so a replay through LangChain's agent
 * middleware or memory shows what compaction sent. `bindTools` accepts any tools (the
 * replies are recorded, tools are never called by the model itself).
 *
 * @example
 * ```ts
 * const model = new LangChainReplayModel(parseClaudeCodeSession(text).messages);
 * const agent = createAgent({ model, tools, middleware: [compaction] });
 * ```
 */
export class LangChainReplayModel extends BaseChatModel {
  /** The cursor over the recorded replies (shared by models `bindTools` returns). */
  readonly replies: RecordedReplies;

  constructor(source: RecordedReplies | readonly Message[], options: RecordedRepliesOptions = {}) {
    super({});
    this.replies = 'next' in source ? source : recordedReplies(source, options);
  }

  static override lc_name(): string {
    return 'LangChainReplayModel';
  }

  _llmType(): string {
    return 'compaction-replay';
  }

  override bindTools(_tools: BindToolsInput[]): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const { message, usage } = this.replies.next(langChainMessagesToCore(messages));
    const aiMessage = toAiMessage(message, usage.inputTokens, usage.outputTokens);
    return {
      generations: [{ text: typeof aiMessage.content === 'string' ? aiMessage.content : '', message: aiMessage }],
      llmOutput: { tokenUsage: { promptTokens: usage.inputTokens, completionTokens: usage.outputTokens } },
    };
  }
}
