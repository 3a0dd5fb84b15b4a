import type { ModelMessage } from 'ai';
import fc from 'fast-check';
import type { ProviderPrompt, PromptMessage } from '../ai-sdk-types.js';

/* Optional keys are absent (never `undefined`), as in the prompts `ai` builds. */

const providerOptions = fc.dictionary(
  fc.constantFrom('acme', 'anthropic', 'openai'),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
  { minKeys: 1, maxKeys: 2 },
);

const text = fc.string({ maxLength: 40 });
const id = fc.stringMatching(/^[a-z0-9_-]{1,12}$/);
const mediaType = fc.constantFrom('image/png', 'image', 'application/pdf', 'text/plain');
const url = fc.webUrl().map((address) => new URL(address));
const bytes = fc.uint8Array({ maxLength: 16 });

const taggedData = fc.oneof(
  fc.record({ type: fc.constant('data' as const), data: fc.oneof(bytes, fc.base64String({ maxLength: 12 })) }),
  fc.record(
    { type: fc.constant('url' as const), url, originalUrl: fc.webUrl() },
    { requiredKeys: ['type', 'url'] },
  ),
  fc.record({ type: fc.constant('reference' as const), reference: fc.constant({ openai: 'file-abc' }) }),
  fc.record({ type: fc.constant('text' as const), text }),
);

const textPart = fc.record({ type: fc.constant('text' as const), text, providerOptions }, { requiredKeys: ['type', 'text'] });
const reasoningPart = fc.record(
  { type: fc.constant('reasoning' as const), text, providerOptions },
  { requiredKeys: ['type', 'text'] },
);
const filePart = fc.record(
  { type: fc.constant('file' as const), mediaType, data: taggedData, filename: text, providerOptions },
  { requiredKeys: ['type', 'mediaType', 'data'] },
);
const reasoningFilePart = fc.record(
  {
    type: fc.constant('reasoning-file' as const),
    mediaType,
    data: fc.oneof(
      fc.record({ type: fc.constant('data' as const), data: bytes }),
      fc.record({ type: fc.constant('url' as const), url }),
    ),
    providerOptions,
  },
  { requiredKeys: ['type', 'mediaType', 'data'] },
);
const customPart = fc.record(
  { type: fc.constant('custom' as const), kind: fc.constant('acme.widget' as const), providerOptions },
  { requiredKeys: ['type', 'kind'] },
);
const toolCallPart = fc.record(
  {
    type: fc.constant('tool-call' as const),
    toolCallId: id,
    toolName: fc.constantFrom('read', 'bash', 'search'),
    input: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    providerExecuted: fc.boolean(),
    providerOptions,
  },
  { requiredKeys: ['type', 'toolCallId', 'toolName', 'input'] },
);
const withOptions = <T extends object>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }, required: (keyof T)[]) =>
  fc.record({ ...model, providerOptions } as never, { requiredKeys: required as never[] }) as fc.Arbitrary<T>;
const toolOutput = fc.oneof(
  withOptions<{ type: 'text'; value: string }>({ type: fc.constant('text'), value: text }, ['type', 'value']),
  withOptions<{ type: 'json'; value: never }>(
    { type: fc.constant('json'), value: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<never> },
    ['type', 'value'],
  ),
  withOptions<{ type: 'error-text'; value: string }>({ type: fc.constant('error-text'), value: text }, ['type', 'value']),
  withOptions<{ type: 'error-json'; value: never }>(
    { type: fc.constant('error-json'), value: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<never> },
    ['type', 'value'],
  ),
  withOptions<{ type: 'execution-denied'; reason: string }>(
    { type: fc.constant('execution-denied'), reason: text },
    ['type'],
  ),
  fc.record({
    type: fc.constant('content' as const),
    value: fc.array(
      fc.oneof(
        fc.record({ type: fc.constant('text' as const), text }),
        fc.record({ type: fc.constant('file' as const), data: taggedData, mediaType }),
      ),
      { maxLength: 3 },
    ),
  }),
);
const toolResultPart = fc.record(
  {
    type: fc.constant('tool-result' as const),
    toolCallId: id,
    toolName: fc.constantFrom('read', 'bash', 'search'),
    output: toolOutput,
    providerOptions,
  },
  { requiredKeys: ['type', 'toolCallId', 'toolName', 'output'] },
);
const approvalResponsePart = fc.record(
  {
    type: fc.constant('tool-approval-response' as const),
    approvalId: id,
    approved: fc.boolean(),
    reason: text,
    providerOptions,
  },
  { requiredKeys: ['type', 'approvalId', 'approved'] },
);

const systemMessage = fc.record(
  { role: fc.constant('system' as const), content: text, providerOptions },
  { requiredKeys: ['role', 'content'] },
);
const userMessage = fc.record(
  { role: fc.constant('user' as const), content: fc.array(fc.oneof(textPart, filePart), { maxLength: 3 }), providerOptions },
  { requiredKeys: ['role', 'content'] },
);
const assistantMessage = fc.record(
  {
    role: fc.constant('assistant' as const),
    content: fc.array(
      fc.oneof(textPart, reasoningPart, filePart, reasoningFilePart, customPart, toolCallPart, toolResultPart),
      { maxLength: 4 },
    ),
    providerOptions,
  },
  { requiredKeys: ['role', 'content'] },
);
const toolMessage = fc.record(
  {
    role: fc.constant('tool' as const),
    content: fc.array(fc.oneof(toolResultPart, approvalResponsePart), { maxLength: 3 }),
    providerOptions,
  },
  { requiredKeys: ['role', 'content'] },
);

/** Random provider prompts: leading system messages, then any mix of the four roles with every part type. */
export const promptArbitrary: fc.Arbitrary<ProviderPrompt> = fc
  .tuple(
    fc.array(systemMessage, { maxLength: 2 }),
    fc.array(fc.oneof(userMessage, assistantMessage, toolMessage, systemMessage), { maxLength: 8 }),
  )
  .map(([system, rest]) => [...system, ...rest] as PromptMessage[]);

const modelFileData = fc.oneof(taggedData, bytes, url, fc.base64String({ maxLength: 12 }));
const modelUserMessage = fc.record(
  {
    role: fc.constant('user' as const),
    content: fc.oneof(
      text,
      fc.array(
        fc.oneof(
          textPart,
          fc.record(
            { type: fc.constant('image' as const), image: fc.oneof(bytes, url), mediaType, providerOptions },
            { requiredKeys: ['type', 'image'] },
          ),
          fc.record(
            { type: fc.constant('file' as const), data: modelFileData, mediaType, filename: text },
            { requiredKeys: ['type', 'data', 'mediaType'] },
          ),
        ),
        { maxLength: 3 },
      ),
    ),
    providerOptions,
  },
  { requiredKeys: ['role', 'content'] },
);
const modelAssistantMessage = fc.record(
  {
    role: fc.constant('assistant' as const),
    content: fc.oneof(
      text,
      fc.array(
        fc.oneof(
          textPart,
          reasoningPart,
          toolCallPart,
          toolResultPart,
          customPart,
          fc.record(
            { type: fc.constant('tool-approval-request' as const), approvalId: id, toolCallId: id },
            { requiredKeys: ['type', 'approvalId', 'toolCallId'] },
          ),
        ),
        { maxLength: 4 },
      ),
    ),
  },
  { requiredKeys: ['role', 'content'] },
);
const modelToolMessage = fc.record({
  role: fc.constant('tool' as const),
  content: fc.array(
    fc.oneof(
      toolResultPart,
      fc.record(
        {
          type: fc.constant('tool-approval-response' as const),
          approvalId: id,
          approved: fc.boolean(),
          providerExecuted: fc.boolean(),
        },
        { requiredKeys: ['type', 'approvalId', 'approved'] },
      ),
    ),
    { maxLength: 3 },
  ),
});

/** Random `ModelMessage` lists: string or part content, images, untagged file data, approvals. */
export const modelMessagesArbitrary: fc.Arbitrary<ModelMessage[]> = fc
  .tuple(
    fc.array(systemMessage, { maxLength: 1 }),
    fc.array(fc.oneof(modelUserMessage, modelAssistantMessage, modelToolMessage), { maxLength: 8 }),
  )
  .map(([system, rest]) => [...system, ...rest] as ModelMessage[]);
