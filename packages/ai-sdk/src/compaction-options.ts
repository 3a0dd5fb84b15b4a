import type { CompactionEvent, CompactionSettings, SessionStore, Summarizer, TokenCounter } from '@compaction/core';
import type { AiSdkModel } from './as-language-model.js';

/** Options shared by {@link compactionMiddleware} and {@link compactionPrepareStep}. */
export type CompactionOptions = {
  /**
   * Where each conversation's compaction state (summary, cut point, usage)
   * persists. Share one store across processes (`@compaction/postgres`,
   * `@compaction/redis`, or `sqliteStore` on one machine: compare-and-set stores)
   * and a compaction made by one process is reused by the others. A `fileStore`
   * serves one machine; its lock does not reach across a network disk.
   * @default memoryStore() — one per middleware / prepareStep function, this process only
   */
  store?: SessionStore;
  /**
   * How summaries are written: `'llm'` (a model writes a structured checkpoint;
   * when it fails, core falls back to `'structured'`), `'structured'`
   * (deterministic, no model call), an AI SDK model (written with it, like
   * `aiSdkSummarizer(model)`), or any core `Summarizer`
   * (e.g. `aiSdkSummarizer(model, options)`). Anything else is an
   * `InvalidSettingsError` when the middleware is made.
   * @default 'llm'
   */
  summarizer?: 'llm' | 'structured' | Summarizer | AiSdkModel;
  /**
   * The model that writes `'llm'` summaries, called directly (not through
   * any middleware). A cheaper model is fine.
   * @default the wrapped model (middleware) / the step's model (prepareStep)
   */
  summaryModel?: AiSdkModel;
  /**
   * When and how much to compact. `contextWindow` defaults to core's
   * `getContextWindow(model.modelId)`.
   * @default DEFAULT_COMPACTION_SETTINGS (trigger 0.8, keepRecentTokens 20000, reserveTokens 16384, …)
   */
  settings?: Partial<CompactionSettings>;
  /**
   * Counts tokens where the provider has not reported them yet. Counts are
   * cached per message for the whole process, by the counter's `name`.
   * @default gptTokenizerCounter('o200k_base')
   */
  counter?: TokenCounter;
  /**
   * Called with every compaction event (`compaction:start`, `compaction:end`,
   * `compaction:error`) of every conversation. The same name as in core and the
   * other adapters.
   * @default undefined
   */
  onEvent?: (event: CompactionEvent) => void;
  /**
   * @deprecated Use `onEvent` (the name core and the other adapters use). Kept
   * working as an alias; giving both is an error.
   * @default undefined
   */
  onCompaction?: (event: CompactionEvent) => void;
};

/** Options of {@link compactionMiddleware}. */
export type CompactionMiddlewareOptions = CompactionOptions;

/** Options of {@link compactionPrepareStep}. */
export type CompactionPrepareStepOptions = CompactionOptions & {
  /**
   * The conversation's key in the store (e.g. your chat id).
   * @default the content id of the opening exchange (first user message and first reply)
   */
  sessionId?: string;
};
