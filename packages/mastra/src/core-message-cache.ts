import type { HistorySource, Message } from '@compaction/core';
import { nextContentId } from '@compaction/core/internal';
import type { MastraDBMessage } from '@mastra/core/agent/message-list';
import { messageToCore } from './message-to-core.js';
import { WITNESS_WORDS, writeMessageWitness } from './message-witness.js';
import { hasToolOutput } from './part-to-core.js';
import { matchesWitness } from './same-recalled-message.js';

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
   * The session took `source` (its `prepare` resolved): what the source says of the one before
   * (`since`) is no longer needed, so that one, and what only it reads, can be let go. A
   * source whose call failed keeps it: the session may still hold the one before.
   */
  taken(source: HistorySource): void;
  /**
   * Lets go of the core messages converted so far (with `message` ids; with `content` ids the
   * chain needs them, so nothing is let go), but those of the messages Mastra may still change in
   * place (from the last user message on, and any waiting for a tool's result): after a session
   * took the history counted, not loaded, they are converted again only if it asks for the old
   * messages. Every source handed out reads the same after it as before.
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
 * A new run whose `Memory` recalled the thread from storage hands in new objects for every
 * message. Where the cache let go of the core messages (`release`: the session held them
 * counted), a recalled message with the id and shape of the one it replaces
 * (`sameRecalledMessage`: no text read) takes its place and is not converted: the
 * source says the prefix is unchanged, so core neither converts it nor compares its ids. Core
 * reads those messages only when it loads them, and then they are converted from the recalled
 * objects, as a fresh conversion would (an edit under the same id to the same size is read
 * then; the model, sent Mastra's own messages meanwhile, saw it at once). Where the cache
 * still holds them (the session loaded them), copies are converted again, as any new object.
 * A source made before that converts a let-go message again reads the copy in its place: the
 * same core messages, ids and places.
 *
 * A source handed out reads the same for as long as anyone holds it (what core asks of a
 * history source): a session whose call failed still holds the source before, though the
 * cache has moved on. So a change other than an append starts a new generation of the
 * cache (its own arrays: the old ones stay as the sources made before read them), and
 * `release` lets go only of messages Mastra does not change in place, which are converted
 * again, the same, when asked for.
 *
 * @example
 * ```ts
 * const cache = coreMessageCache('message');
 * const core = cache.convert(messageList.get.all.db());
 * ```
 */
export function coreMessageCache(ids: 'message' | 'content'): CoreMessageCache {
  /** What the sources handed out since the last change other than an append read. */
  let generation: Generation = { sources: { items: [], pinned: 0 }, core: [], base: 0, baseSources: 0 };
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
  /**
   * Source `i`'s witness as it was converted (`writeMessageWitness`, {@link WITNESS_WORDS} words
   * from `i * WITNESS_WORDS`), so a recalled copy is compared without reading the converted
   * message again (only its id). Message ids only: with content ids nothing is let go of.
   */
  let witnesses = ids === 'message' ? new Int32Array(ends.length * WITNESS_WORDS) : undefined;
  /** How many sources `ends` describes. */
  let endCount = 0;
  /** The last source handed out (the next one says what it kept of it). */
  let lastView: View | undefined;

  /** Brings the cache in line with `messages`; resolves to how many core messages stayed as they were, or -1 when nothing changed. */
  function update(messages: readonly MastraDBMessage[]): number {
    const sources = generation.sources.items;
    const lastUser = lastUserIndex(messages);
    const common = Math.min(endCount, messages.length);
    // Before the last user message, only a message waiting for a tool's result can change in place.
    const recent = Math.min(common, lastUser);
    let same = 0;
    while (same < recent && sources[same] === messages[same]) same += 1;
    // Messages whose core messages were let go (the session held them counted) may come back as
    // recalled copies: matched by id and shape, not converted (see `sameRecalledMessage`).
    if (witnesses && same < generation.baseSources)
      same = adoptRecalled(sources, witnesses, messages, same, Math.min(recent, generation.baseSources));
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
    if (same === messages.length && same === endCount) {
      releaseShapes(lastUser);
      return -1;
    }
    const unchanged = same === 0 ? 0 : ends[same - 1]!;

    if (same < endCount) {
      generation = cut(generation, same, unchanged);
      for (const at of shapes.keys()) if (at >= same) shapes.delete(at);
      endCount = same;
      if ((pendingAt.at(-1) ?? -1) >= same) pendingAt = pendingAt.filter((at) => at < same);
      shapedFrom = Math.min(shapedFrom, same);
    }
    const { core } = generation;
    const items = generation.sources.items;
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
      items.push(message);
      if (waiting || index >= lastUser) shapes.set(index, shapeOf(message));
      if (waiting) pendingAt.push(index);
      if (endCount === ends.length) {
        const grown = new Int32Array(ends.length * 2);
        grown.set(ends);
        ends = grown;
        if (witnesses) {
          const more = new Int32Array(grown.length * WITNESS_WORDS);
          more.set(witnesses);
          witnesses = more;
        }
      }
      if (witnesses) writeMessageWitness(message, witnesses, endCount * WITNESS_WORDS);
      ends[endCount] = generation.base + core.length;
      endCount += 1;
    }
    releaseShapes(lastUser);
    return unchanged;
  }

  return {
    convert(messages) {
      // A source handed out before does not describe what changed here: the next one says nothing of it.
      if (update(messages) >= 0) lastView = undefined;
      materialize(generation);
      return generation.core;
    },
    view(messages) {
      const unchanged = update(messages);
      if (unchanged < 0 && lastView) return lastView;
      const previous = lastView;
      const length = endCount === 0 ? 0 : ends[endCount - 1]!;
      // Only the newest source says what it kept of the one before: no chain of every source ever made.
      if (previous) previous.since = undefined;
      const read = generation;
      const made: View = {
        length,
        messages(from) {
          if (from < read.base) materialize(read);
          return read.core.slice(from - read.base, length - read.base);
        },
        ...(previous ? { since: { source: previous, unchanged: Math.max(0, unchanged) } } : {}),
      };
      lastView = made;
      return made;
    },
    taken(source) {
      if (source === lastView) lastView.since = undefined;
    },
    release() {
      if (ids !== 'message') return;
      // Messages Mastra may still change in place stay converted: a source made before reads them as they were.
      const keepFrom = Math.min(shapedFrom, pendingAt[0] ?? endCount, endCount);
      const keepCore = keepFrom === 0 ? 0 : ends[keepFrom - 1]!;
      if (keepCore <= generation.base) return;
      generation.core = generation.core.slice(keepCore - generation.base);
      generation.base = keepCore;
      generation.baseSources = keepFrom;
      generation.sources.pinned = Math.max(generation.sources.pinned, keepFrom);
    },
    get held() {
      return generation.core.length;
    },
  };

  /** Lets go of the shapes before `lastUser` that no later call compares (a few a call: where the last user message moved). */
  function releaseShapes(lastUser: number): void {
    const until = Math.min(lastUser, endCount);
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

/**
 * The Mastra messages of a generation: only ever appended to, or cut back no further than
 * `pinned` — the most sources any generation sharing the array converts again (`baseSources`).
 */
type SourceArray = { items: MastraDBMessage[]; pinned: number };

/**
 * What the sources handed out between two changes other than an append read: the Mastra
 * messages and their core messages from index `base` on (those before were let go by
 * `release`, and are converted again from the first `baseSources` messages when read).
 */
type Generation = { sources: SourceArray; core: Message[]; base: number; baseSources: number };

/**
 * A new generation: the first `same` messages of `from` (`unchanged` core messages). The
 * arrays `from` reads stay as they are; the Mastra messages are shared unless `from` (or a
 * generation before it on the same array) must convert some of those cut off again.
 */
function cut(from: Generation, same: number, unchanged: number): Generation {
  const shared = from.sources.pinned <= same;
  if (shared) from.sources.items.length = same;
  const sources = shared ? from.sources : { items: from.sources.items.slice(0, same), pinned: 0 };
  if (unchanged < from.base) {
    // Every message kept was let go of: converted again from all `same` of them when read.
    sources.pinned = Math.max(sources.pinned, same);
    return { sources, core: [], base: unchanged, baseSources: same };
  }
  return { sources, core: from.core.slice(0, unchanged - from.base), base: from.base, baseSources: from.baseSources };
}

/** Converts again the core messages a generation let go of (its first `baseSources` messages, unchanged). */
function materialize(generation: Generation): void {
  if (generation.base === 0) return;
  const front: Message[] = [];
  const { items } = generation.sources;
  for (let index = 0; index < generation.baseSources; index += 1) {
    for (const converted of messageToCore(items[index]!)) front.push(converted);
  }
  generation.core = front.concat(generation.core);
  generation.base = 0;
  generation.baseSources = 0;
}

/** A source {@link coreMessageCache} hands out; its `since` is dropped once a newer one is made. */
type View = HistorySource & { since?: HistorySource['since'] };

/**
 * From `from`, while each message of `messages` is the one in `sources` or a recalled copy of it
 * (`sameRecalledMessage`), up to `end`: the copy takes the original's place in `sources`
 * (what is converted again, when asked for, and what the next call compares by identity).
 * Returns where the match stopped. One pass that reads no text and, of the messages converted
 * before, only their ids: their witnesses (`witnesses`, written when they were converted) stand
 * for the rest. A copy that matches has the same witness, so it stays.
 */
function adoptRecalled(
  sources: MastraDBMessage[],
  witnesses: Int32Array,
  messages: readonly MastraDBMessage[],
  from: number,
  end: number,
): number {
  let at = from;
  for (; at < end; at += 1) {
    const now = messages[at]!;
    const before = sources[at]!;
    if (before === now) continue;
    if (!matchesWitness(witnesses, at * WITNESS_WORDS, before, now)) break;
    sources[at] = now;
  }
  return at;
}

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
