import * as adapter from '@compaction/langchain';
import type { BaseMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent, createMiddleware } from 'langchain';
import { LangChainReplayModel } from '../replay/langchain-replay-model.js';
import type { DriverInput } from './replay-driver.js';

/** Whether `@compaction/langchain` exports its agent middleware (`compactionMiddleware`). */
export function hasLangChainAdapter(): boolean {
  return typeof (adapter as Record<string, unknown>).compactionMiddleware === 'function';
}

/** Ends the agent's run after each model call, so the recorded tool results are fed in, not run. */
const oneCallPerRun = createMiddleware({
  name: 'ReplayOneModelCallPerRun',
  afterModel: { canJumpTo: ['end'], hook: () => ({ jumpTo: 'end' as const }) },
});

/**
 * Replays through `@compaction/langchain`'s agent middleware: a `createAgent` over the
 * replay model with `compactionMiddleware` and a `MemorySaver` checkpointer (the
 * compaction record lives in the agent state). Each recorded call is one `invoke` on the
 * same thread with the messages that came since the previous call; where the recorded
 * user ran `/compact`, that `invoke` carries `requestCompaction()`.
 */
export async function replayThroughLangChain(input: DriverInput): Promise<void> {
  const agent = createAgent({
    model: new LangChainReplayModel(input.replies),
    tools: [],
    middleware: [
      adapter.compactionMiddleware({
        settings: input.settings,
        summarizer: input.summarizer,
        counter: input.counter,
        onEvent: input.onEvent,
        ...(input.model === undefined ? {} : { model: input.model }),
      }),
      oneCallPerRun,
    ],
    checkpointer: new MemorySaver(),
  });
  const config = { configurable: { thread_id: input.sessionId }, recursionLimit: 10 };
  let pending: BaseMessage[] = [];
  let compactByHand = false;
  for (const message of input.messages) {
    if (input.manualCompactionsBefore?.has(message.id)) compactByHand = true;
    if (message.role !== 'assistant') {
      pending.push(...adapter.fromCoreMessages([message]));
      continue;
    }
    await agent.invoke({ messages: pending, ...(compactByHand ? adapter.requestCompaction() : {}) }, config);
    pending = [];
    compactByHand = false;
  }
}
