import type { AdapterOptions, SessionStore, Summarizer } from '@compaction/core';
import type { MastraModelConfig } from '@mastra/core/llm';

/**
 * Options of `CompactionProcessor`: core's `settings`, `counter` and `onEvent`
 * (`AdapterOptions`; without `settings.contextWindow` the window is looked up from
 * the model id), and Mastra's own.
 */
export type CompactionProcessorOptions = AdapterOptions & {
  /**
   * Where each conversation's compaction state (summary, cut point, usage) is
   * kept. The messages themselves stay where Mastra keeps them. Without it, a run
   * with a Mastra `Memory` that has storage keeps the state in its thread's
   * metadata under `compaction` (`threadMetadataStore`: no second database;
   * compare-and-set within one process — servers that serve one thread at the
   * same time pass a `postgresStore` or `redisStore` here); a run without one
   * keeps it in memory.
   * @default threadMetadataStore(the Memory's storage) for runs with a Memory thread, else memoryStore()
   */
  store?: SessionStore;
  /**
   * Makes the summaries: a Mastra model (an AI SDK model, or a model-router id
   * such as `'openai/gpt-5-mini'`: wrapped with `mastraSummarizer`), any core
   * `Summarizer` (e.g. `mastraSummarizer(model, options)`), `'structured'` for the
   * deterministic one that needs no model, or `'llm'` for the agent's own model.
   * Anything else is an `InvalidSettingsError` in the constructor.
   * @default mastraSummarizer(the agent's own model)
   */
  summarizer?: Summarizer | 'structured' | 'llm' | MastraModelConfig;
  /**
   * Model id for the context-window lookup and usage calibration.
   * @default the `modelId` of the model the agent calls
   */
  model?: string;
  /**
   * The session key of a run without Mastra `Memory`. Runs with memory use the thread id.
   * @default a content id of the conversation's first message (`chainedContentIds`)
   */
  sessionId?: string;
  /**
   * The processor id. Mastra shares per-request state between the hooks of processors with the same id.
   * @default 'compaction'
   */
  id?: string;
};
