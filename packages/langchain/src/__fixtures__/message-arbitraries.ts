import {
  AIMessage,
  type BaseMessage,
  ChatMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import fc from 'fast-check';

const text = fc.string({ maxLength: 30 });
const json = fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown);
const args = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), json, { maxKeys: 3 });

const textBlock = text.map((value) => ({ type: 'text', text: value }));
const imageUrlBlock = fc.oneof(
  fc.webUrl().map((url) => ({ type: 'image_url', image_url: { url } })),
  fc.base64String({ minLength: 4, maxLength: 16 }).map((data) => ({ type: 'image_url', image_url: `data:image/png;base64,${data}` })),
);
const standardBlock = fc.record({
  type: fc.constantFrom('image', 'audio', 'file'),
  url: fc.webUrl(),
  mimeType: fc.constantFrom('image/png', 'audio/wav', 'application/pdf'),
});
const reasoningBlock = text.map((value) => ({ type: 'reasoning', reasoning: value }));
const thinkingBlock = fc.record({ type: fc.constant('thinking'), thinking: text, signature: fc.base64String({ maxLength: 12 }) });
/** A provider block core does not model. */
const foreignBlock = fc.record({ type: fc.constant('server_tool_call'), id: text, name: text, args });

const userContent = fc.oneof(text, fc.array(fc.oneof(textBlock, imageUrlBlock, standardBlock), { maxLength: 4 }));
const aiContent = fc.oneof(text, fc.array(fc.oneof(textBlock, reasoningBlock, thinkingBlock, foreignBlock), { maxLength: 4 }));
const toolContent = fc.oneof(text, fc.array(textBlock, { minLength: 1, maxLength: 3 }));
const usage = fc.option(
  fc.record({ input_tokens: fc.nat(100_000), output_tokens: fc.nat(10_000) }).map((value) => ({
    ...value,
    total_tokens: value.input_tokens + value.output_tokens,
  })),
  { nil: undefined },
);

type Shape =
  | { kind: 'human'; content: unknown }
  | { kind: 'system'; content: string }
  | { kind: 'chat'; role: 'user' | 'assistant'; content: string }
  | { kind: 'ai'; content: unknown; calls: { name: string; args: Record<string, unknown> }[]; usage: unknown }
  | { kind: 'tool-results'; results: { content: unknown; error: boolean; named: boolean }[] };

const shape: fc.Arbitrary<Shape> = fc.oneof(
  fc.record({ kind: fc.constant('human' as const), content: userContent }),
  fc.record({ kind: fc.constant('system' as const), content: text }),
  fc.record({ kind: fc.constant('chat' as const), role: fc.constantFrom('user' as const, 'assistant' as const), content: text }),
  fc.record({
    kind: fc.constant('ai' as const),
    content: aiContent,
    calls: fc.array(fc.record({ name: fc.string({ minLength: 1, maxLength: 10 }), args }), { maxLength: 3 }),
    usage,
  }),
  fc.record({
    kind: fc.constant('tool-results' as const),
    results: fc.array(fc.record({ content: toolContent, error: fc.boolean(), named: fc.boolean() }), { maxLength: 3 }),
  }),
);

/**
 * Random LangChain conversations: human (text, images, files), system, ChatMessage,
 * AI (text, reasoning, thinking, provider blocks, tool calls, usage) and tool results
 * answering the latest AI tool calls (string or block content, success or error).
 * About half the messages have no id.
 */
export const conversation: fc.Arbitrary<BaseMessage[]> = fc
  .array(fc.tuple(shape, fc.boolean()), { maxLength: 12 })
  .map((entries) => {
    const messages: BaseMessage[] = [];
    let openCalls: { id: string; name: string }[] = [];
    for (const [index, [entry, withId]] of entries.entries()) {
      const id = withId ? `msg-${index}` : undefined;
      const base = id ? { id } : {};
      switch (entry.kind) {
        case 'human':
          messages.push(new HumanMessage({ ...base, content: entry.content as string }));
          break;
        case 'system':
          messages.push(new SystemMessage({ ...base, content: entry.content }));
          break;
        case 'chat':
          messages.push(new ChatMessage({ ...base, role: entry.role, content: entry.content }));
          break;
        case 'ai': {
          const calls = entry.calls.map((call, callIndex) => ({ ...call, id: `call_${index}_${callIndex}`, type: 'tool_call' as const }));
          openCalls = calls;
          messages.push(
            new AIMessage({
              ...base,
              content: entry.content as string,
              ...(calls.length > 0 ? { tool_calls: calls } : {}),
              ...(entry.usage ? { usage_metadata: entry.usage as AIMessage['usage_metadata'] } : {}),
            }),
          );
          break;
        }
        case 'tool-results':
          for (const [resultIndex, result] of entry.results.slice(0, openCalls.length).entries()) {
            const call = openCalls[resultIndex]!;
            messages.push(
              new ToolMessage({
                ...(id ? { id: `${id}-${resultIndex}` } : {}),
                tool_call_id: call.id,
                content: result.content as string,
                ...(result.error ? { status: 'error' as const } : {}),
                ...(result.named ? { name: call.name } : {}),
              }),
            );
          }
          openCalls = [];
          break;
      }
    }
    return messages;
  });
