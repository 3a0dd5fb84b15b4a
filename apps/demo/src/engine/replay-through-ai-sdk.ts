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
 * are appended instead of run).
 */
export async function replayThroughAiSdk(input: DriverInput): Promise<void> {
  const model = wrapLanguageModel({
    model: aiSdkReplayModel(input.replies, input.model === undefined ? {} : { modelId: input.model }),
    middleware: adapter.compactionMiddleware({
      summarizer: input.summarizer,
      settings: input.settings,
      counter: input.counter,
      onCompaction: input.onEvent,
    }),
  });
  const tools: Record<string, Tool> = Object.fromEntries(
    recordedToolNames(input.messages).map((name) => [name, tool({ inputSchema: jsonSchema({ type: 'object' }) })]),
  );
  const history: Message[] = [];
  for (const message of input.messages) {
    if (message.role !== 'assistant') {
      history.push(message);
      continue;
    }
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
