import type { Message, Part, Role } from '@compaction/core';
import type { MastraDBMessage, MastraMessagePart } from '@mastra/core/agent/message-list';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversation } from './__fixtures__/mastra-arbitraries.js';
import { MASTRA_ORIGIN_KEY, type MastraEnvelope, type MastraOrigin } from './mastra-origin.js';
import { messageToCore } from './message-to-core.js';
import { hasToolOutput, partToCore, toolResultToCore } from './part-to-core.js';

describe('messageToCore', () => {
  it('converts any message exactly as the previous release did (its implementation kept below as the reference)', () => {
    const flags = fc.record({ pinned: fc.boolean(), synthetic: fc.boolean() }, { requiredKeys: [] });
    fc.assert(
      fc.property(conversation, fc.array(flags, { maxLength: 8 }), (messages, flagged) => {
        for (const [index, message] of messages.entries()) {
          const extra = flagged[index];
          const { content, ...head } = message;
          // Every other message with its content first: Mastra's own messages do not always end with it.
          const reordered: MastraDBMessage = index % 2 === 0 ? message : { content, ...head };
          const withFlags: MastraDBMessage = extra
            ? { ...reordered, content: { ...content, metadata: { ...content.metadata, ...extra } } }
            : reordered;
          const converted = messageToCore(withFlags);
          const reference = referenceMessageToCore(withFlags);
          expect(converted).toStrictEqual(reference);
          // The envelope keeps the message's fields in their order (what a JSON copy of it shows).
          for (const [at, core] of converted.entries()) {
            const origin = (core.metadata as Record<string, MastraOrigin>)[MASTRA_ORIGIN_KEY]!;
            const expected = (reference[at]!.metadata as Record<string, MastraOrigin>)[MASTRA_ORIGIN_KEY]!;
            expect(JSON.stringify(origin)).toBe(JSON.stringify(expected));
          }
        }
      }),
    );
  });
});

// The previous release's conversion, verbatim: the reference the faster one must match.

const CORE_FLAGS = ['pinned', 'synthetic'] as const;

type IndexedPart = { index: number; part: MastraMessagePart };

function referenceMessageToCore(message: MastraDBMessage): Message[] {
  const { content, ...head } = message;
  const { parts, ...contentWithoutParts } = content;
  const envelope: MastraEnvelope = { ...head, content: contentWithoutParts };
  const role = coreRole(message.role);
  const indexed = parts.map((part, index) => ({ index, part }));
  const steps = role === 'assistant' ? splitSteps(indexed) : [indexed];
  const flags = coreFlags(content.metadata);
  const origin = (step: number, covered: IndexedPart[], sources: number[]): Record<string, unknown> => ({
    ...flags,
    [MASTRA_ORIGIN_KEY]: { envelope, partCount: parts.length, step, parts: covered, sources } satisfies MastraOrigin,
  });

  const core: Message[] = [];
  for (const [step, stepParts] of steps.entries()) {
    const id = step === 0 ? message.id : `${message.id}#${step}`;
    const coreParts: Part[] = [];
    const sources: number[] = [];
    const results: Part[] = [];
    const resultParts: IndexedPart[] = [];
    for (const { index, part } of stepParts) {
      if (part.type === 'tool-invocation' && role !== 'assistant') continue;
      const corePart = partToCore(part);
      if (corePart) {
        coreParts.push(corePart);
        sources.push(index);
      }
      if (part.type === 'tool-invocation' && hasToolOutput(part)) {
        results.push(toolResultToCore(part));
        resultParts.push({ index, part });
      }
    }
    // Copied to size (`slice`): an array grown by `push` keeps room for 16 more items, and
    // core messages live as long as their conversation is kept.
    core.push({ id, role, parts: coreParts.slice(), metadata: origin(step, stepParts.slice(), sources.slice()) });
    if (results.length > 0) {
      const resultSources = resultParts.map(({ index }) => index);
      core.push({
        id: `${id}:results`,
        role: 'tool',
        parts: results.slice(),
        metadata: origin(step, resultParts.slice(), resultSources),
      });
    }
  }
  return core;
}

/** The metadata keys core reads (`pinned`, `synthetic`), when the Mastra message sets them. */
function coreFlags(metadata: Record<string, unknown> | undefined): Record<string, unknown> {
  const flags: Record<string, unknown> = {};
  for (const key of CORE_FLAGS) if (metadata?.[key] !== undefined) flags[key] = metadata[key];
  return flags;
}

/** Splits an assistant message's parts into steps: each `step-start` after the first part opens a new one. */
function splitSteps(parts: IndexedPart[]): IndexedPart[][] {
  const steps: IndexedPart[][] = [[]];
  for (const item of parts) {
    if (item.part.type === 'step-start' && steps.at(-1)!.length > 0) steps.push([]);
    steps.at(-1)!.push(item);
  }
  return steps;
}

function coreRole(role: MastraDBMessage['role']): Role {
  if (role === 'assistant' || role === 'system') return role;
  return 'user';
}
