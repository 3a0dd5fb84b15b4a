import type { MessageList } from '@mastra/core/agent/message-list';
import type { RequestContext } from '@mastra/core/request-context';

/** The Mastra `Memory` thread a run belongs to, if any. */
export type MemoryThread = {
  threadId?: string;
  resourceId?: string;
  /**
   * Whether Mastra `Memory` serves the run: its messages keep their ids from
   * run to run (they are stored). Without it, a re-sent conversation gets new ids.
   */
  stored: boolean;
};

/**
 * Reads the thread of a run the way Mastra's own memory processors do: from
 * `requestContext.get('MastraMemory')` (set only when the agent has `memory`),
 * else from the message list's `memoryInfo`.
 */
export function memoryThread(requestContext: RequestContext | undefined, messageList: MessageList): MemoryThread {
  const memory = requestContext?.get('MastraMemory') as
    | { thread?: { id?: unknown; resourceId?: unknown }; resourceId?: unknown }
    | undefined;
  const threadId = memory?.thread?.id;
  if (typeof threadId === 'string' && threadId) {
    const resourceId = memory?.resourceId ?? memory?.thread?.resourceId;
    return { threadId, ...(typeof resourceId === 'string' ? { resourceId } : {}), stored: true };
  }
  const info = messageList.serialize().memoryInfo;
  if (!info?.threadId) return { stored: false };
  return { threadId: info.threadId, ...(info.resourceId ? { resourceId: info.resourceId } : {}), stored: false };
}
