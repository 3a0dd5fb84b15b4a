import type { Message, Part, Role } from '@compaction/core';
import type { MastraDBMessage, MastraMessagePart } from '@mastra/core/agent/message-list';
import { MASTRA_ORIGIN_KEY, type MastraEnvelope, type MastraOrigin } from './mastra-origin.js';
import { hasToolOutput, partToCore, toolResultToCore } from './part-to-core.js';

/** Keys of a Mastra message's `content.metadata` that core reads on its messages. */
const CORE_FLAGS = ['pinned', 'synthetic'] as const;

type IndexedPart = { index: number; part: MastraMessagePart };

/**
 * The core messages of one Mastra message (see `toCoreMessages`, which converts a
 * list with this): one for a user or system message; for an assistant message one
 * per step, each followed by a `tool` message with the step's finished results.
 * Ids are the Mastra id (`<id>#<step>` for later steps, `…:results` for results).
 *
 * @example
 * ```ts
 * const core = messageToCore(messageList.get.all.db()[0]);
 * ```
 */
export function messageToCore(message: MastraDBMessage): Message[] {
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
