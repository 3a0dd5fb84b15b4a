import * as adapter from '@compaction/ai-sdk';
import { type Message, repairToolPairs } from '@compaction/core';
import { generateText, jsonSchema, type Tool, tool, wrapLanguageModel } from 'ai';
import { aiSdkReplayModel } from '../replay/ai-sdk-replay-model.js';
import { recordedToolNames } from './recorded-tool-names.js';
import type { DriverInput } from './replay-driver.js';

/** Whether `@compaction/ai-sdk` exports its entry point (`compactionMiddleware`). */
export function hasAiSdkAdapter(): boolean {
  return typeof (adapter as Record<string, unknown>).compactionMiddleware === 'function';
}

/**
 * Replays through `@compaction/ai-sdk`: the replay model wrapped with
 * `compactionMiddleware` by `wrapLanguageModel`, one `generateText` per recorded call
 * with the history so far (tools declared without `execute`, so the recorded results
 * are appended instead of run). Where the recorded user ran `/compact`, the
 * conversation's session (`middleware.session`) is asked to compact at the next call.
 */
export async function replayThroughAiSdk(input: DriverInput): Promise<void> {
  const replayModel = aiSdkReplayModel(input.replies, input.model === undefined ? {} : { modelId: input.model });
  const middleware = adapter.compactionMiddleware({
    summarizer: input.summarizer,
    settings: input.settings,
    counter: input.counter,
    onEvent: input.onEvent,
  });
  const model = wrapLanguageModel({ model: replayModel, middleware });
  const tools: Record<string, Tool> = Object.fromEntries(
    recordedToolNames(input.messages).map((name) => [name, tool({ inputSchema: jsonSchema({ type: 'object' }) })]),
  );
  const history: Message[] = [];
  let compactByHand = false;
  for (const message of input.messages) {
    if (input.manualCompactionsBefore?.has(message.id)) compactByHand = true;
    if (message.role !== 'assistant') {
      history.push(message);
      continue;
    }
    if (compactByHand) middleware.session(input.sessionId, replayModel).requestCompaction();
    compactByHand = false;
    await generateText({
      model,
      messages: adapter.messagesToModelMessages(repairToolPairs(history)),
      allowSystemInMessages: true,
      tools,
      providerOptions: { compaction: { sessionId: input.sessionId } },
    });
    history.push(message);
  }
}
