import type { MastraDBMessage, MastraMessagePart } from '@mastra/core/agent/message-list';
import fc from 'fast-check';

const json = fc.jsonValue({ maxDepth: 2 });
// Mastra messages are JSON data: storage hands them back parsed, so every object has Object's
// prototype. fast-check 4 makes null-prototype records and dictionaries unless told not to, and a
// recall (structuredClone) would turn those into plain objects: a difference no Mastra app sees.
const partExtras = fc.record(
  { createdAt: fc.nat(), providerMetadata: fc.constant({ openai: { itemId: 'x' } }) },
  { requiredKeys: [], noNullPrototype: true },
);

const textPart = fc
  .tuple(fc.string(), partExtras)
  .map(([text, extras]) => ({ type: 'text' as const, text, ...extras }));
const reasoningPart = fc.string().map((text) => ({
  type: 'reasoning' as const,
  reasoning: text,
  details: [{ type: 'text' as const, text }],
}));
const filePart = fc.constantFrom('image/png', 'text/plain').map((mimeType) => ({
  type: 'file' as const,
  mimeType,
  data: 'data:;base64,AAAA',
}));
const carriedPart = fc.oneof(
  partExtras.map((extras) => ({ type: 'step-start' as const, ...extras })),
  json.map((data) => ({ type: 'data-progress' as const, data })),
  fc.constant({ type: 'source' as const, source: { sourceType: 'url' as const, id: 's', url: 'https://example.com' } }),
);

/** A tool invocation; its call id is made unique when the conversation is assembled. */
const toolPart = fc
  .record({
    state: fc.constantFrom('call', 'result', 'output-error', 'output-denied', 'approval-requested'),
    toolName: fc.constantFrom('read', 'grep', 'bash'),
    args: json,
    result: json,
    withModelOutput: fc.boolean(),
    extras: partExtras,
  })
  .map(({ state, toolName, args, result, withModelOutput, extras }) => {
    const toolInvocation = {
      state,
      toolCallId: '',
      toolName,
      args,
      ...(state === 'result' ? { result } : {}),
      ...(state === 'output-error' ? { errorText: 'failed' } : {}),
    };
    const modelOutput =
      state === 'result' && withModelOutput ? { mastra: { modelOutput: { type: 'json', value: result } } } : {};
    return { type: 'tool-invocation' as const, toolInvocation, ...extras, ...modelOutput } as MastraMessagePart;
  });

const envelope = fc.record(
  {
    threadId: fc.constant('t1'),
    resourceId: fc.constant('r1'),
    type: fc.constant('v2'),
    content: fc.string(),
    metadata: fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), json, { maxKeys: 2, noNullPrototype: true }),
  },
  { requiredKeys: [], noNullPrototype: true },
);

const message = fc
  .record({
    role: fc.constantFrom('user', 'assistant', 'assistant', 'system', 'signal'),
    parts: fc.array(fc.oneof(textPart, reasoningPart, filePart, carriedPart, toolPart, toolPart), { maxLength: 8 }),
    envelope,
  })
  .map(({ role, parts, envelope: { content, metadata, ...head } }) => ({ role, parts, head, content, metadata }));

/** Conversations of Mastra messages with unique ids and tool call ids, ordered in time. */
export const conversation = fc.array(message, { maxLength: 8 }).map((messages) => {
  let calls = 0;
  const nextCallId = () => {
    calls += 1;
    return `call-${calls}`;
  };
  return messages.map(({ role, parts, head, content, metadata }, index): MastraDBMessage => {
    const uniqueParts = parts.map(
      (part): MastraMessagePart =>
        part.type === 'tool-invocation'
          ? { ...part, toolInvocation: { ...part.toolInvocation, toolCallId: nextCallId() } }
          : part,
    );
    return {
      id: `msg-${index}`,
      role: role as MastraDBMessage['role'],
      createdAt: new Date(Date.UTC(2026, 0, 1) + index * 1000),
      ...head,
      content: {
        format: 2,
        parts: uniqueParts,
        ...(content !== undefined ? { content } : {}),
        ...(metadata !== undefined ? { metadata } : {}),
      },
    };
  });
});

