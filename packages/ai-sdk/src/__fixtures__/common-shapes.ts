import fc from 'fast-check';
import type { COMMON_CODES } from '../count-resent-messages.js';
import type { PromptMessage, ProviderPrompt } from '../ai-sdk-types.js';

/** One message of each shape `countResentMessages` checks whole (see `COMMON_CODES`). */
export const COMMON_SHAPES: Record<keyof typeof COMMON_CODES, PromptMessage> = {
  systemText: { role: 'system', content: [{ type: 'text', text: 'rules' }] } as unknown as PromptMessage,
  userText: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
  assistantText: { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
  toolCall: {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { path: 'a.ts' } }],
  },
  toolResult: {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: { type: 'text', value: 'x' } }],
  },
  textThenToolCall: {
    role: 'assistant',
    content: [
      { type: 'text', text: 'reading' },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'bash', input: { command: 'ls' } },
    ],
  },
};

const text = fc.string({ maxLength: 20 });
const id = fc.stringMatching(/^[a-z0-9_-]{1,8}$/);
const toolName = fc.constantFrom('read', 'bash', 'search');
const input = fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 });
const output = fc.oneof(
  fc.record({ type: fc.constant('text' as const), value: text }),
  fc.record({ type: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 2 }) }),
);
const textPart = fc.record({ type: fc.constant('text' as const), text });
const callPart = fc.record({ type: fc.constant('tool-call' as const), toolCallId: id, toolName, input });

/**
 * Prompts made only of the shapes `countResentMessages` checks whole — one text part (system,
 * user, assistant), one tool call, one tool result, a text then a tool call; no provider
 * options — the messages of nearly every conversation.
 */
export const commonShapesPromptArbitrary: fc.Arbitrary<ProviderPrompt> = fc.array(
  fc.oneof(
    fc.record({ role: fc.constantFrom('system' as const, 'user' as const, 'assistant' as const), content: fc.tuple(textPart) }),
    fc.record({ role: fc.constant('assistant' as const), content: fc.tuple(callPart) }),
    fc.record({
      role: fc.constant('tool' as const),
      content: fc.tuple(fc.record({ type: fc.constant('tool-result' as const), toolCallId: id, toolName, output })),
    }),
    fc.record({ role: fc.constant('assistant' as const), content: fc.tuple(textPart, callPart) }),
  ) as fc.Arbitrary<PromptMessage>,
  { maxLength: 10 },
);
