import { parseMessages } from '@compaction/core';
import type { MastraMessagePart } from '@mastra/core/agent/message-list';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversation } from './__fixtures__/mastra-arbitraries.js';
import { fromCoreMessages } from './from-core-messages.js';
import { mastraOrigin } from './mastra-origin.js';
import { modelOutput, toolOutput } from './part-to-core.js';
import { toCoreMessages } from './to-core-messages.js';

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
