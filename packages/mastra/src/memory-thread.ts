import type { MessageList } from '@mastra/core/agent/message-list';
import type { RequestContext } from '@mastra/core/request-context';
import type { MastraCompositeStore } from '@mastra/core/storage';

/** The Mastra `Memory` thread a run belongs to, if any. */
export type MemoryThread = {
  threadId?: string;
  resourceId?: string;
  /**
   * Whether Mastra `Memory` serves the run: its messages keep their ids from
   * run to run (they are stored). Without it, a re-sent conversation gets new ids.
   */
  stored: boolean;
  /**
   * The storage of the run's `Memory`, when it has one and may write to it (not
   * `readOnly`): where the thread and its metadata live.
   */
  storage?: MastraCompositeStore;
};

/**
 * Reads the thread of a run the way Mastra's own memory processors do: from
 * `requestContext.get('MastraMemory')` (set only when the agent has `memory`),
 * else from the message list's `memoryInfo`.
 */
export function memoryThread(requestContext: RequestContext | undefined, messageList: MessageList): MemoryThread {
  const memory = requestContext?.get('MastraMemory') as
    | {
        thread?: { id?: unknown; resourceId?: unknown };
        resourceId?: unknown;
        memoryConfig?: { readOnly?: unknown };
        runState?: () => { memory?: RunMemory } | undefined;
      }
    | undefined;
  const threadId = memory?.thread?.id;
  if (typeof threadId === 'string' && threadId) {
    const resourceId = memory?.resourceId ?? memory?.thread?.resourceId;
    const storage = memoryStorage(memory);
    return {
      threadId,
      ...(typeof resourceId === 'string' ? { resourceId } : {}),
      stored: true,
      ...(storage ? { storage } : {}),
    };
  }
  const info = messageList.serialize().memoryInfo;
  if (!info?.threadId) return { stored: false };
  return { threadId: info.threadId, ...(info.resourceId ? { resourceId: info.resourceId } : {}), stored: false };
}

/** What the processor uses of the run's Mastra `Memory`. */
type RunMemory = {
  storage?: MastraCompositeStore;
  getMergedThreadConfig?: (config?: object) => { readOnly?: unknown } | undefined;
};

/**
 * The storage of the run's `Memory` (its `storage` getter throws when there is
 * none), or undefined — also when the run's memory is `readOnly`, as Mastra's
 * own processors then write nothing to the thread either.
 */
function memoryStorage(memory: {
  memoryConfig?: { readOnly?: unknown };
  runState?: () => { memory?: RunMemory } | undefined;
}): MastraCompositeStore | undefined {
  try {
    const runMemory = typeof memory.runState === 'function' ? memory.runState()?.memory : undefined;
    if (!runMemory || memory.memoryConfig?.readOnly === true) return undefined;
    if (runMemory.getMergedThreadConfig?.(memory.memoryConfig)?.readOnly === true) return undefined;
    const storage = runMemory.storage;
    return storage && typeof storage.getStore === 'function' ? storage : undefined;
  } catch {
    return undefined; // a Memory without storage: the session keeps its record in memory
  }
}
