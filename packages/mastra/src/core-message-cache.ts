import type { HistorySource, Message } from '@compaction/core';
import { nextContentId } from '@compaction/core/internal';
import type { MastraDBMessage } from '@mastra/core/agent/message-list';
import { messageToCore } from './message-to-core.js';
import { hasToolOutput } from './part-to-core.js';

/** See {@link coreMessageCache}. */
export type CoreMessageCache = {
  /**
   * `toCoreMessages(messages, { ids })`, converting only what changed since the
   * last call. When messages were only added (or nothing changed), returns the
   * last call's array with the new ones pushed; otherwise a new array. So a
   * returned array is only ever appended to: its first `n` messages stay as they were.
   */
  convert(messages: readonly MastraDBMessage[]): Message[];
  /**
   * The same update as `convert`, handed out as a history source for
   * `session.prepare({ history })`: its `since` says how many core messages are those of
   * the previous source (the unchanged prefix), and it converts nothing it does not hold
   * until asked. The same source object again when nothing changed. A source reads the
   * cache as it is, so it stands for the list until the next `view` or `convert`.
   */
  view(messages: readonly MastraDBMessage[]): HistorySource;
  /**
   * Lets go of the core messages converted so far (with `message` ids; with `content` ids the
   * chain needs them, so nothing is let go): after a session took the history counted, not
   * loaded, they are converted again only if it asks for the old messages.
   */
  release(): void;
  /** How many core messages the cache holds converted. */
  readonly held: number;
};

/**
 * Mastra → core conversion for one conversation, called before every model call
 * with the whole message list. The messages of the longest unchanged prefix since
 * the last call keep their core messages (and content ids, which depend only on
 * what comes before them); the rest is converted again.
 *
 * Between two calls a message can be replaced, added or removed, and Mastra
 * changes some in place: it pushes or inserts parts, replaces a part, its
 * `toolInvocation` or the `metadata` of the run's own messages, and adds a tool's
 * result to the message that made the call. So a message counts as unchanged
 * when it is the same object and — from the last user message on, or when it
 * had a tool call without a result — has the same fields (`id`, `role`,
 * `createdAt`, thread, `content` and its `parts` array, `metadata`, `content`,
 * `toolInvocations`) and the same parts (each part object and each part's
 * `toolInvocation` object), all by identity. Older messages are compared by
 * identity only, so a call costs next to nothing per message. A change made in
 * place in any other way (a part's `text` edited by a processor) is not seen;
 * nor would core see it: a message's id stands for its content.
 *
 * @example
 * ```ts
 * const cache = coreMessageCache('message');
 * const core = cache.convert(messageList.get.all.db());
 * ```
 */
export function coreMessageCache(ids: 'message' | 'content'): CoreMessageCache {
  const sources: MastraDBMessage[] = [];
  /**
   * The shape of each source that a later call compares field by field: those from the
   * last user message on and those waiting for a tool's result (`pendingAt`). Older ones
   * are compared by identity only, so their shapes are let go (a map: a kept thread holds a few).
   */
  const shapes = new Map<number, unknown[]>();
  /** The sources with a tool call without its result (Mastra may add the result in place later), ascending. */
  let pendingAt: number[] = [];
  /** Shapes before this index are held only for `pendingAt`. */
  let shapedFrom = 0;
  /** After source `i`, how many core messages there are. */
  let ends = new Int32Array(16);
  /** How many sources `ends` describes. */
  let endCount = 0;
  /** The core messages from index `coreBase` on (those before were let go by `release`). */
  let core: Message[] = [];
  let coreBase = 0;
  /** The last source handed out (the next one says what it kept of it). */
  let lastView: View | undefined;

  /** The core messages before `coreBase`, converted again from their sources (unchanged, by the scan). */
  function materialize(): void {
    if (coreBase === 0) return;
    const front: Message[] = [];
    for (let index = 0; front.length < coreBase && index < sources.length; index += 1) {
      for (const converted of messageToCore(sources[index]!)) front.push(converted);
    }
    core = front.concat(core);
    coreBase = 0;
  }

  /** Brings the cache in line with `messages`; resolves to how many core messages stayed as they were, or -1 when nothing changed. */
  function update(messages: readonly MastraDBMessage[]): number {
    const lastUser = lastUserIndex(messages);
    const common = Math.min(sources.length, messages.length);
    // Before the last user message, only a message waiting for a tool's result can change in place.
    const recent = Math.min(common, lastUser);
    let same = 0;
    while (same < recent && sources[same] === messages[same]) same += 1;
    for (const at of pendingAt) {
      if (at >= same) break;
      if (!sameShape(shapes.get(at), messages[at]!)) {
        same = at;
        break;
      }
    }
    if (same === recent) {
      while (same < common && sources[same] === messages[same] && sameShape(shapes.get(same), messages[same]!))
        same += 1;
    }
    if (same === messages.length && same === sources.length) {
      releaseShapes(lastUser);
      return -1;
    }
    const unchanged = same === 0 ? 0 : ends[same - 1]!;

    if (same < sources.length) {
      // A new array: the one returned before keeps its messages. (Only when shorter:
      // setting an array's length drops its spare capacity, and the next push copies it.)
      if (unchanged < coreBase) {
        core = [];
        coreBase = unchanged;
      } else core = core.slice(0, unchanged - coreBase);
      sources.length = same;
      for (const at of shapes.keys()) if (at >= same) shapes.delete(at);
      endCount = same;
      if ((pendingAt.at(-1) ?? -1) >= same) pendingAt = pendingAt.filter((at) => at < same);
      shapedFrom = Math.min(shapedFrom, same);
    }
    let previousId = core.at(-1)?.id; // never let go with content ids (see `release`)
    for (let index = same; index < messages.length; index += 1) {
      const message = messages[index]!;
      for (const converted of messageToCore(message)) {
        if (ids === 'content') {
          // Chained exactly as `chainedContentIds` does: each id hashes the content with the id before it.
          previousId = nextContentId({ role: converted.role, parts: converted.parts }, previousId);
          core.push({ ...converted, id: previousId });
        } else {
          core.push(converted);
        }
      }
      const waiting = message.content.parts.some((part) => part.type === 'tool-invocation' && !hasToolOutput(part));
      sources.push(message);
      if (waiting || index >= lastUser) shapes.set(index, shapeOf(message));
      if (waiting) pendingAt.push(index);
      if (endCount === ends.length) {
        const grown = new Int32Array(ends.length * 2);
        grown.set(ends);
        ends = grown;
      }
      ends[endCount] = coreBase + core.length;
      endCount += 1;
    }
    releaseShapes(lastUser);
    return unchanged;
  }

  return {
    convert(messages) {
      // A source handed out before does not describe what changed here: the next one says nothing of it.
      if (update(messages) >= 0) lastView = undefined;
      materialize();
      return core;
    },
    view(messages) {
      const unchanged = update(messages);
      if (unchanged < 0 && lastView) return lastView;
      const previous = lastView;
      const length = endCount === 0 ? 0 : ends[endCount - 1]!;
      // Only the newest source says what it kept of the one before: no chain of every source ever made.
      if (previous) previous.since = undefined;
      const made: View = {
        length,
        messages(from) {
          if (from < coreBase) materialize();
          return core.slice(from - coreBase, length - coreBase);
        },
        ...(previous ? { since: { source: previous, unchanged: Math.max(0, unchanged) } } : {}),
      };
      lastView = made;
      return made;
    },
    release() {
      if (ids !== 'message') return;
      coreBase += core.length;
      core = [];
    },
    get held() {
      return core.length;
    },
  };

  /** Lets go of the shapes before `lastUser` that no later call compares (a few a call: where the last user message moved). */
  function releaseShapes(lastUser: number): void {
    const until = Math.min(lastUser, sources.length);
    if (until <= shapedFrom) return;
    let pending = 0;
    while (pending < pendingAt.length && pendingAt[pending]! < shapedFrom) pending += 1;
    for (let index = shapedFrom; index < until; index += 1) {
      if (pendingAt[pending] === index) pending += 1;
      else shapes.delete(index);
    }
    shapedFrom = until;
  }
}

/** A source {@link coreMessageCache} hands out; its `since` is dropped once a newer one is made. */
type View = HistorySource & { since?: HistorySource['since'] };

/** How many values of a message's own shape come before its parts'. */
const HEAD = 11;

/**
 * What a message looks like to {@link coreMessageCache}: its own fields and its
 * content's (by identity), then every part and, of a tool invocation, its
 * `toolInvocation` object (by identity).
 */
function shapeOf(message: MastraDBMessage): unknown[] {
  const { content } = message;
  const shape: unknown[] = [
    message.id,
    message.role,
    message.createdAt,
    message.threadId,
    message.resourceId,
    message.type,
    content,
    content.parts,
    content.metadata,
    content.content,
    content.toolInvocations,
  ];
  for (const part of content.parts) shape.push(part, part.type === 'tool-invocation' ? part.toolInvocation : undefined);
  return shape;
}

/** The index of the last user message, or 0. */
function lastUserIndex(messages: readonly MastraDBMessage[]): number {
  for (let index = messages.length - 1; index > 0; index -= 1) if (messages[index]!.role === 'user') return index;
  return 0;
}

/** Whether `message` still has `shape` (see {@link shapeOf}), without allocating; false without a shape. */
function sameShape(shape: unknown[] | undefined, message: MastraDBMessage): boolean {
  if (shape === undefined) return false;
  const { content } = message;
  const { parts } = content;
  if (
    shape.length !== HEAD + 2 * parts.length ||
    shape[0] !== message.id ||
    shape[1] !== message.role ||
    shape[2] !== message.createdAt ||
    shape[3] !== message.threadId ||
    shape[4] !== message.resourceId ||
    shape[5] !== message.type ||
    shape[6] !== content ||
    shape[7] !== parts ||
    shape[8] !== content.metadata ||
    shape[9] !== content.content ||
    shape[10] !== content.toolInvocations
  ) {
    return false;
  }
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index]!;
    if (shape[HEAD + 2 * index] !== part) return false;
    if (shape[HEAD + 2 * index + 1] !== (part.type === 'tool-invocation' ? part.toolInvocation : undefined))
      return false;
  }
  return true;
}
