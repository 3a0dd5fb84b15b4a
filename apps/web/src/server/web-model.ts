import { readFileSync } from 'node:fs';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { parseClaudeCodeSession } from '@compaction/claude-code-import';
import type { CompactionSettings } from '@compaction/core';
import type { ToolSet } from 'ai';
import { type ReplayModel, replayModel } from './replay/replay-model.js';
import { replaySteps } from './replay/replay-steps.js';
import { replayTools } from './replay/replay-tools.js';

/** What the app chats with: a model, its tools and how compaction is set up for it. */
export type WebModel = {
  /** Shown in the page header, e.g. "replay of 258c7280….jsonl (offline)". */
  description: string;
  /** The model the chat talks to (wrapped with the compaction middleware by the server). */
  model: LanguageModelV4;
  /** The tools `streamText` gets (the replay tools offline, none for an endpoint). */
  tools: ToolSet;
  /** The system prompt. */
  instructions: string;
  /** `structured` offline (no model call), `llm` with an endpoint (the endpoint's model writes summaries). */
  summarizer: 'llm' | 'structured';
  /** Compaction settings: the window and budgets scaled to it. */
  settings: Partial<CompactionSettings>;
  /** Set for the offline replay: the route puts each conversation at its place in the recording. */
  replay?: ReplayModel;
};

/** The recorded session the replay plays by default (a long Claude Code session, tool calls included). */
export const DEFAULT_RECORDING = new URL(
  '../../../../fixtures/claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl',
  import.meta.url,
);

/** The replay's context window unless `COMPACTION_WEB_CONTEXT_WINDOW` says otherwise: small, so compaction shows soon. */
export const DEFAULT_REPLAY_WINDOW = 48_000;

const INSTRUCTIONS = 'You are a coding assistant. Answer the user; use the tools when you need to look at files.';

/** Settings scaled to a window: keep a quarter verbatim, reserve a tenth for the answer. */
function settingsFor(contextWindow: number): Partial<CompactionSettings> {
  return {
    contextWindow,
    reserveTokens: Math.round(contextWindow / 10),
    keepRecentTokens: Math.round(contextWindow / 4),
  };
}

/**
 * The model from the environment, as the CLI chat reads it: `COMPACTION_DEMO_BASE_URL`
 * (an OpenAI-compatible endpoint, e.g. `http://localhost:11434/v1`), `COMPACTION_DEMO_MODEL`
 * and `COMPACTION_DEMO_API_KEY`; without a base URL, the offline replay of a recorded session
 * (`COMPACTION_WEB_RECORDING`, default {@link DEFAULT_RECORDING}). `COMPACTION_WEB_CONTEXT_WINDOW`
 * sets the context window (replay default {@link DEFAULT_REPLAY_WINDOW}).
 * @throws Error naming the variable when one is malformed.
 */
export function webModelFromEnv(env: Readonly<Record<string, string | undefined>>): WebModel {
  const window = env.COMPACTION_WEB_CONTEXT_WINDOW?.trim();
  const contextWindow = window ? Number(window) : undefined;
  if (contextWindow !== undefined && (!Number.isInteger(contextWindow) || contextWindow < 4000)) {
    throw new Error(`COMPACTION_WEB_CONTEXT_WINDOW must be a whole number of tokens ≥ 4000, got "${window}"`);
  }
  const baseUrl = env.COMPACTION_DEMO_BASE_URL?.trim();
  if (baseUrl) {
    if (!URL.canParse(baseUrl)) throw new Error(`COMPACTION_DEMO_BASE_URL is not a URL: "${baseUrl}"`);
    const modelName = env.COMPACTION_DEMO_MODEL?.trim();
    if (!modelName)
      throw new Error('COMPACTION_DEMO_BASE_URL is set but COMPACTION_DEMO_MODEL is not; set the model name');
    const apiKey = env.COMPACTION_DEMO_API_KEY?.trim();
    const provider = createOpenAICompatible({
      name: 'endpoint',
      baseURL: baseUrl.replace(/\/+$/, ''),
      ...(apiKey ? { apiKey } : {}),
    });
    return {
      description: `${modelName} at ${baseUrl}`,
      model: provider.chatModel(modelName),
      tools: {},
      instructions: 'You are a helpful assistant.',
      summarizer: 'llm',
      settings: contextWindow ? settingsFor(contextWindow) : {},
    };
  }
  const recording = env.COMPACTION_WEB_RECORDING?.trim() || DEFAULT_RECORDING;
  const session = parseClaudeCodeSession(readFileSync(recording, 'utf8'));
  const steps = replaySteps(session.messages);
  const replay = replayModel(steps);
  const name = String(recording).split('/').at(-1);
  return {
    description: `replay of ${name} (${steps.length} recorded model calls, offline)`,
    model: replay,
    tools: replayTools(steps),
    instructions: INSTRUCTIONS,
    summarizer: 'structured',
    settings: settingsFor(contextWindow ?? DEFAULT_REPLAY_WINDOW),
    replay,
  };
}
