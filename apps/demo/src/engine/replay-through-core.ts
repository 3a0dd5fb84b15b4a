import { createCompactionSession } from '@compaction/core';
import type { DriverInput } from './replay-driver.js';

/**
 * Replays through core's `CompactionSession` directly: append, `prepare()` before every
 * call, the replay model answers the prepared context, `recordUsage` after. Where the
 * recorded user ran `/compact` by hand, compacts manually at the same point.
 */
export async function replayThroughCore(input: DriverInput): Promise<void> {
  const session = createCompactionSession({
    sessionId: input.sessionId,
    settings: input.settings,
    summarizer: input.summarizer,
    counter: input.counter,
    onEvent: input.onEvent,
    ...(input.model === undefined ? {} : { model: input.model }),
  });
  for (const message of input.messages) {
    if (input.manualCompactionsBefore?.has(message.id)) await session.compact();
    if (message.role !== 'assistant') {
      await session.append(message);
      continue;
    }
    const { messages: prompt } = await session.prepare();
    const reply = input.replies.next(prompt);
    await session.append(reply.message);
    await session.recordUsage(reply.usage);
  }
}
