import { type Message, messageText } from '@compaction/core';
import * as adapter from '@compaction/mastra';
import { Agent } from '@mastra/core/agent';
import { aiSdkReplayModel } from '../replay/ai-sdk-replay-model.js';
import type { DriverInput } from './replay-driver.js';

type AgentModel = ConstructorParameters<typeof Agent>[0]['model'];
type GenerateInput = Parameters<Agent['generate']>[0];

/** Whether `@compaction/mastra` exports its processor (`CompactionProcessor`). */
export function hasMastraAdapter(): boolean {
  return typeof (adapter as Record<string, unknown>).CompactionProcessor === 'function';
}

/**
 * Replays through `@compaction/mastra`: a Mastra `Agent` over the AI SDK replay model
 * with the `CompactionProcessor` (`withCompaction`), one `generate` (one step) per
 * recorded call with the history so far, all under one session id. System messages
 * become the agent's instructions. Where the recorded user ran `/compact`, the
 * conversation's session (`processor.session`) is asked to compact at the next call.
 */
export async function replayThroughMastra(input: DriverInput): Promise<void> {
  // Mastra takes system messages as the agent's instructions, not as input messages.
  const instructions = input.messages
    .filter((message) => message.role === 'system')
    .map(messageText)
    .join('\n\n');
  const processor = new adapter.CompactionProcessor({
    sessionId: input.sessionId,
    summarizer: input.summarizer,
    settings: input.settings,
    counter: input.counter,
    onEvent: input.onEvent,
    ...(input.model === undefined ? {} : { model: input.model }),
  });
  const agent = new Agent(
    adapter.withCompaction(
      {
        id: 'replay',
        name: 'Replay',
        instructions,
        // Mastra's model type does not name `LanguageModelV4` itself, but its runtime takes one.
        model: aiSdkReplayModel(input.replies, input.model === undefined ? {} : { modelId: input.model }) as AgentModel,
      },
      processor,
    ),
  );
  const history: Message[] = [];
  let compactByHand = false;
  for (const message of input.messages) {
    if (input.manualCompactionsBefore?.has(message.id)) compactByHand = true;
    if (message.role === 'system') continue;
    if (message.role !== 'assistant') {
      history.push(message);
      continue;
    }
    if (compactByHand) processor.session(input.sessionId)?.requestCompaction();
    compactByHand = false;
    await agent.generate(adapter.fromCoreMessages(history) as GenerateInput, { maxSteps: 1 });
    history.push(message);
  }
}
