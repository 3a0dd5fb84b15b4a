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
  const flags = coreFlags(content.metadata);
  const core: Message[] = [];
  if (role !== 'assistant' || parts.length === 0) {
    pushStep(core, message.id, role, envelope, flags, parts, 0, 0, parts.length);
    return core;
  }
  // An assistant message is split into steps: each `step-start` after the first part of a step opens a new one.
  let step = 0;
  let start = 0;
  for (let index = 1; index <= parts.length; index += 1) {
    if (index < parts.length && parts[index]!.type !== 'step-start') continue;
    pushStep(core, step === 0 ? message.id : `${message.id}#${step}`, role, envelope, flags, parts, step, start, index);
    step += 1;
    start = index;
  }
  return core;
}

/**
 * Scratch arrays of `pushStep`, reused from call to call (it never calls out while they
 * are in use) and never shrunk: each step's items are copied out to size.
 */
const scratch = {
  parts: [] as Part[],
  sources: [] as number[],
  results: [] as Part[],
  resultParts: [] as IndexedPart[],
};

/**
 * Pushes the core message of the step made of `parts[start..end)` (and, when its tools
 * have finished, a `tool` message with their results). Arrays are made to size: an array
 * grown by `push` keeps room for 16 more items, and core messages live as long as their
 * conversation is kept.
 */
function pushStep(
  core: Message[],
  id: string,
  role: Role,
  envelope: MastraEnvelope,
  flags: Record<string, unknown> | undefined,
  parts: MastraMessagePart[],
  step: number,
  start: number,
  end: number,
): void {
  const covered: IndexedPart[] = new Array(end - start);
  let converted = 0;
  let finished = 0;
  for (let index = start; index < end; index += 1) {
    const part = parts[index]!;
    const item = { index, part };
    covered[index - start] = item;
    if (part.type === 'tool-invocation' && role !== 'assistant') continue;
    const corePart = partToCore(part);
    if (corePart) {
      scratch.parts[converted] = corePart;
      scratch.sources[converted] = index;
      converted += 1;
    }
    if (part.type === 'tool-invocation' && hasToolOutput(part)) {
      scratch.results[finished] = toolResultToCore(part);
      scratch.resultParts[finished] = item;
      finished += 1;
    }
  }
  const sources = scratch.sources.slice(0, converted);
  const partCount = parts.length;
  const metadata = origin(flags, { envelope, partCount, step, parts: covered, sources });
  core.push({ id, role, parts: scratch.parts.slice(0, converted), metadata });
  if (finished > 0) {
    const resultParts = scratch.resultParts.slice(0, finished);
    const resultSources = resultParts.map(({ index }) => index);
    const resultsMetadata = origin(flags, { envelope, partCount, step, parts: resultParts, sources: resultSources });
    core.push({
      id: `${id}:results`,
      role: 'tool',
      parts: scratch.results.slice(0, finished),
      metadata: resultsMetadata,
    });
  }
  // The scratch arrays keep no message alive past the call.
  scratch.parts.fill(undefined as never, 0, converted);
  scratch.resultParts.fill(undefined as never, 0, finished);
  scratch.results.fill(undefined as never, 0, finished);
}

/** A core message's metadata: the flags core reads, then the origin. */
function origin(flags: Record<string, unknown> | undefined, mastra: MastraOrigin): Record<string, unknown> {
  return flags ? { ...flags, [MASTRA_ORIGIN_KEY]: mastra } : { [MASTRA_ORIGIN_KEY]: mastra };
}

/** The metadata keys core reads (`pinned`, `synthetic`), when the Mastra message sets them; undefined when it sets none. */
function coreFlags(metadata: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (metadata === undefined) return undefined;
  let flags: Record<string, unknown> | undefined;
  for (const key of CORE_FLAGS) {
    if (metadata[key] === undefined) continue;
    flags ??= {};
    flags[key] = metadata[key];
  }
  return flags;
}

function coreRole(role: MastraDBMessage['role']): Role {
  if (role === 'assistant' || role === 'system') return role;
  return 'user';
}
