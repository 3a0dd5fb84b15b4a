import type { AdapterOptions, CompactionEvent, SessionStore, Summarizer } from '@compaction/core';
import type { AiSdkModel } from './as-language-model.js';

/**
 * Options shared by {@link compactionMiddleware} and {@link compactionPrepareStep}: core's
 * `settings`, `counter` and `onEvent` (`AdapterOptions`; without `settings.contextWindow`
 * the window is core's `getContextWindow(model.modelId)`), and the AI SDK's own.
 */
export type CompactionOptions = AdapterOptions & {
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
