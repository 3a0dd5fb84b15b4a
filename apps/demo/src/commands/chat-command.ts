import { basename, join, resolve } from 'node:path';
import { createCompactionSession, llmSummarizer, structuredSummarizer } from '@compaction/core';
import { chatEndpointFromEnv } from '../chat/chat-endpoint.js';
import { openAiChatModel, openAiGenerate } from '../chat/openai-chat-model.js';
import { replayChatModel } from '../chat/replay-chat-model.js';
import { runChat } from '../chat/run-chat.js';
import { DEFAULT_FIXTURES_DIR, DEMO_SESSION_FILE } from '../cli/app-paths.js';
import type { CliIo } from '../cli/cli-io.js';
import { parseCommandArgs } from '../cli/parse-command-args.js';
import { SETTINGS_FLAGS, settingsFromFlags } from '../cli/settings-from-flags.js';
import { formatImportWarnings } from '../recording/format-import-warnings.js';
import { readRecording } from '../recording/read-recording.js';

/**
 * `chat`: an interactive session. With `COMPACTION_DEMO_BASE_URL` (and `_MODEL`, `_API_KEY`)
 * it talks to that OpenAI-compatible endpoint and summarizes with it; without, it runs on
 * the replay model over a recorded session and the structured summarizer, and says so.
 */
export async function chatCommand(args: readonly string[], io: CliIo): Promise<void> {
  const { values } = parseCommandArgs('chat', args, { fixture: { type: 'string' }, ...SETTINGS_FLAGS });
  const settings = settingsFromFlags(values);
  const endpoint = chatEndpointFromEnv(io.env);
  if (endpoint) {
    const session = createCompactionSession({
      sessionId: 'chat',
      model: endpoint.model,
      settings,
      summarizer: llmSummarizer({ generate: openAiGenerate(endpoint, io.fetch) }),
    });
    const model = openAiChatModel(endpoint, io.fetch);
    await runChat({ session, model, io, intro: [`Chatting with ${model.description}; summaries by the same model.`] });
    return;
  }
  const fixture = resolve(values.fixture ?? join(DEFAULT_FIXTURES_DIR, DEMO_SESSION_FILE));
  const recording = await readRecording(fixture);
  for (const line of formatImportWarnings(fixture, recording.warnings)) io.stderr.write(`${line}\n`);
  const model = replayChatModel(recording.messages, basename(fixture));
  const session = createCompactionSession({
    sessionId: 'chat',
    settings,
    summarizer: structuredSummarizer(),
    ...(recording.model === undefined ? {} : { model: recording.model }),
  });
  await runChat({
    session,
    model,
    io,
    intro: [
      'No model endpoint configured (set COMPACTION_DEMO_BASE_URL, COMPACTION_DEMO_MODEL, COMPACTION_DEMO_API_KEY to use one).',
      `Running offline: answers come from ${model.description}; summaries from the structured summarizer.`,
    ],
  });
}
