import { memoryStore } from '@compaction/core';
import * as adapter from '@compaction/langchain';
import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { LangChainReplayModel } from '../replay/langchain-replay-model.js';
import type { DriverInput } from './replay-driver.js';

/** Whether `@compaction/langchain` exports its compacting memory (`CompactingChatMessageHistory`). */
export function hasLangChainMemoryAdapter(): boolean {
  return typeof (adapter as Record<string, unknown>).CompactingChatMessageHistory === 'function';
}

/**
 * Replays through `@compaction/langchain`'s memory: a `CompactingChatMessageHistory`
 * over an in-memory history; before each recorded call the chain reads `getMessages()`
 * (the compacted context), invokes the replay chat model and adds its answer. Where the
 * recorded user ran `/compact`, `history.compact()` runs at the same point.
 */
export async function replayThroughLangChainMemory(input: DriverInput): Promise<void> {
  const history = new adapter.CompactingChatMessageHistory({
    history: new InMemoryChatMessageHistory(),
    sessionId: input.sessionId,
    store: memoryStore(),
    summarizer: input.summarizer,
    settings: input.settings,
    counter: input.counter,
    onEvent: input.onEvent,
    ...(input.model === undefined ? {} : { model: input.model }),
  });
  const model = new LangChainReplayModel(input.replies);
  for (const message of input.messages) {
    if (input.manualCompactionsBefore?.has(message.id)) await history.compact();
    if (message.role !== 'assistant') {
      await history.addMessages(adapter.fromCoreMessages([message]));
      continue;
    }
    const answer = await model.invoke(await history.getMessages());
    await history.addMessage(answer);
  }
}
