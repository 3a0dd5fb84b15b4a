import { parseMessages } from '@compaction/core';
import type { MastraDBMessage, MastraMessagePart } from '@mastra/core/agent/message-list';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromCoreMessages } from './from-core-messages.js';
import { mastraOrigin } from './mastra-origin.js';
import { modelOutput, toolOutput } from './part-to-core.js';
import { toCoreMessages } from './to-core-messages.js';

const json = fc.jsonValue({ maxDepth: 2 });
const partExtras = fc.record(
  { createdAt: fc.nat(), providerMetadata: fc.constant({ openai: { itemId: 'x' } }) },
  { requiredKeys: [] },
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
    metadata: fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), json, { maxKeys: 2 }),
  },
  { requiredKeys: [] },
);

const message = fc
  .record({
    role: fc.constantFrom('user', 'assistant', 'assistant', 'system', 'signal'),
    parts: fc.array(fc.oneof(textPart, reasoningPart, filePart, carriedPart, toolPart, toolPart), { maxLength: 8 }),
    envelope,
  })
  .map(({ role, parts, envelope: { content, metadata, ...head } }) => ({ role, parts, head, content, metadata }));

/** Conversations of Mastra messages with unique ids and tool call ids, ordered in time. */
const conversation = fc.array(message, { maxLength: 8 }).map((messages) => {
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

function modelOutputOf(part: MastraMessagePart): unknown {
  return part.type === 'tool-invocation' && part.toolInvocation.state === 'result' ? modelOutput(part) : undefined;
}

describe('toCoreMessages / fromCoreMessages', () => {
  it('round-trip any conversation exactly, in both id modes, as valid core messages', () => {
    fc.assert(
      fc.property(conversation, fc.constantFrom('message' as const, 'content' as const), (messages, ids) => {
        const core = toCoreMessages(messages, { ids });
        expect(() => parseMessages(core)).not.toThrow();
        expect(fromCoreMessages(core)).toStrictEqual(messages);
      }),
    );
  });

  it('rebuild any kept suffix with exactly the parts it covers, ids kept', () => {
    fc.assert(
      fc.property(
        conversation.chain((messages) => {
          const core = toCoreMessages(messages);
          return fc.tuple(fc.constant(messages), fc.constant(core), fc.nat({ max: core.length }));
        }),
        ([messages, core, cut]) => {
          const kept = core.slice(cut);
          const covered = new Map<string, Set<number>>();
          for (const coreMessage of kept) {
            const origin = mastraOrigin(coreMessage)!;
            const indexes = covered.get(origin.envelope.id) ?? new Set<number>();
            for (const { index } of origin.parts) indexes.add(index);
            covered.set(origin.envelope.id, indexes);
          }
          const rebuilt = fromCoreMessages(kept);
          expect(rebuilt.map(({ id }) => id)).toEqual([...covered.keys()]);
          for (const result of rebuilt) {
            const original = messages.find(({ id }) => id === result.id)!;
            const indexes = [...covered.get(result.id)!].sort((a, b) => a - b);
            expect(result.content.parts).toStrictEqual(indexes.map((index) => original.content.parts[index]));
            if (indexes.length === original.content.parts.length) expect(result).toStrictEqual(original);
            expect(result.createdAt).toBe(original.createdAt);
          }
        },
      ),
    );
  });

  it('show a changed tool output where the model reads it, and only there', () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        const core = toCoreMessages(messages).map((coreMessage) => ({
          ...coreMessage,
          parts: coreMessage.parts.map((part) => (part.type === 'tool-result' ? { ...part, output: 'pruned' } : part)),
        }));
        const rebuilt = fromCoreMessages(core);
        for (const [messageIndex, result] of rebuilt.entries()) {
          for (const [partIndex, part] of result.content.parts.entries()) {
            const original = messages[messageIndex]!.content.parts[partIndex]!;
            const answered = part.type === 'tool-invocation' && toolOutput(part) !== undefined;
            const isResult = answered && messages[messageIndex]!.role === 'assistant';
            if (!isResult) expect(part).toBe(original);
            else if (modelOutputOf(original)) expect(toolOutput(part)).toStrictEqual({ type: 'text', value: 'pruned' });
            else expect(toolOutput(part)).toBe('pruned');
          }
        }
        expect(fromCoreMessages(toCoreMessages(messages))).toStrictEqual(messages);
      }),
    );
  });
});
