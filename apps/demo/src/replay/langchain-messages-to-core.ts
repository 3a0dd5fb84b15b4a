import type { Message, Part } from '@compaction/core';
import type { BaseMessage } from '@langchain/core/messages';

type Block = {
  type?: string;
  text?: string;
  thinking?: string;
  reasoning?: string;
  mime_type?: string;
  data?: unknown;
};

function contentParts(content: BaseMessage['content']): Part[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  return (content as Block[]).flatMap((block): Part[] => {
    if (block.type === 'text' && typeof block.text === 'string') return [{ type: 'text', text: block.text }];
    if (block.type === 'thinking' || block.type === 'reasoning') {
      return [{ type: 'reasoning', text: String(block.thinking ?? block.reasoning ?? block.text ?? '') }];
    }
    if (block.type === 'image' || block.type === 'image_url' || block.type === 'file') {
      return [{ type: 'file', mediaType: block.mime_type ?? 'image/*', data: block.data }];
    }
    return [];
  });
}

function textOf(content: BaseMessage['content']): string {
  if (typeof content === 'string') return content;
  return contentParts(content)
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('');
}

/**
 * The LangChain messages a chat model received, as core messages, so that core's
 * counter can measure them: AI tool calls become `tool-call` parts, a `ToolMessage`
 * a `tool-result` (its content as the output).
 */
export function langChainMessagesToCore(messages: readonly BaseMessage[]): Message[] {
  return messages.map((message, index): Message => {
    const id = `prompt-${index}`;
    const type = message.getType();
    if (type === 'tool') {
      const tool = message as BaseMessage & { tool_call_id?: string; status?: string };
      return {
        id,
        role: 'tool',
        parts: [
          {
            type: 'tool-result',
            toolCallId: tool.tool_call_id ?? '',
            toolName: tool.name ?? '',
            output: textOf(message.content),
            isError: tool.status === 'error',
          },
        ],
      };
    }
    if (type === 'ai') {
      const ai = message as BaseMessage & { tool_calls?: { id?: string; name: string; args: unknown }[] };
      const calls: Part[] = (ai.tool_calls ?? []).map((call) => ({
        type: 'tool-call',
        toolCallId: call.id ?? '',
        toolName: call.name,
        input: call.args,
      }));
      return { id, role: 'assistant', parts: [...contentParts(message.content), ...calls] };
    }
    return { id, role: type === 'system' ? 'system' : 'user', parts: contentParts(message.content) };
  });
}
