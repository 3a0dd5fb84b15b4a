import { getContextWindow, type PeerOptionHint } from '@compaction/core';
import { checkAdapterOptions } from '@compaction/core/internal';
import type { CompactionProcessorOptions } from './compaction-processor-options.js';
import { mastraSummarizerResolver } from './resolve-summarizer.js';

/** Every option; typed, so a new option must be listed here (or the typecheck fails). */
const OPTIONS = {
  store: true,
  summarizer: true,
  settings: true,
  model: true,
  counter: true,
  sessionId: true,
  onEvent: true,
  id: true,
} satisfies Record<keyof CompactionProcessorOptions, true>;

const TOKEN_LIMITER = "Mastra's TokenLimiter";

/** Options of the processors users replace with this one, and ours (LangChain's and the settings are core's `ADAPTER_OPTION_HINTS`). */
const HINTS: Readonly<Record<string, PeerOptionHint>> = {
  limit: {
    from: TOKEN_LIMITER,
    use: 'settings: { contextWindow } (the window) and settings: { trigger } (when to compact)',
  },
  encoding: { from: TOKEN_LIMITER, use: "counter: gptTokenizerCounter('o200k_base' | 'cl100k_base')" },
  strategy: { from: TOKEN_LIMITER, use: 'nothing: old messages are summarized, never dropped' },
  countMode: { from: TOKEN_LIMITER, use: 'nothing: the whole history is counted, with the usage the provider reports' },
  trimMode: { from: TOKEN_LIMITER, use: 'nothing: old messages are summarized, never dropped' },
  onCompaction: { from: 'an older @compaction/ai-sdk', use: 'onEvent' },
  name: { from: 'Mastra processors', use: 'id' },
};

/**
 * Checks the options of `CompactionProcessor` in its constructor: known keys
 * (`TokenLimiter`'s `limit`, `encoding`, … are told ours), the settings (against
 * the window when `settings.contextWindow` or `model` gives it; otherwise the
 * window-dependent checks wait for the first run, when the agent's model is known), the summarizer (core's shared resolver: a Mastra model or
 * a model-router id is accepted and wrapped), store, counter, ids and `onEvent`.
 * Throws `InvalidSettingsError` naming the option.
 */
export function checkProcessorOptions(options: unknown): void {
  checkAdapterOptions(options, {
    where: 'CompactionProcessor',
    known: Object.keys(OPTIONS),
    hints: HINTS,
    summarizer: mastraSummarizerResolver,
    modelId: 'a model to summarize with goes in summarizer',
    // Without a model id the window is the agent's model's, known at the first run: checked then.
    window: (given) => (typeof given.model === 'string' ? getContextWindow(given.model) : undefined),
    strings: { sessionId: 'the conversation, for every run', id: "the processor's id" },
  });
}

/** Every option of `compactionContextTools` (besides the processor). */
const CONTEXT_TOOLS_OPTIONS = ['sessionId', 'maxToolOutputChars', 'snippetChars'] as const;

/**
 * Checks the options of `compactionContextTools(processor, options)` when the tools are
 * made: an options object (or nothing) with known keys, a `sessionId` that is not empty
 * nor only whitespace (core's rule); the tool budgets are checked by core's
 * `createContextTools`. Throws `InvalidSettingsError` naming the option.
 */
export function checkContextToolsOptions(options: unknown): void {
  checkAdapterOptions(options, {
    where: 'compactionContextTools',
    known: CONTEXT_TOOLS_OPTIONS,
    shape: '{ sessionId?, maxToolOutputChars?, snippetChars? }',
    hints: Object.fromEntries(
      ['settings', 'store', 'summarizer', 'model', 'counter', 'onEvent'].map((key) => [
        key,
        { use: `the processor's options: new CompactionProcessor({ ${key} }) (the tools read its sessions)` },
      ]),
    ),
    strings: { sessionId: 'the conversation when the run has no Memory thread' },
  });
}
