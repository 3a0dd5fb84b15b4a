import type { CompactionSettings } from '../settings/compaction-settings.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { CompactionEvent } from './types.js';

/**
 * The options that mean the same, with the same defaults, in a session and in every
 * adapter (the AI SDK middleware, LangChain's middleware and history, Mastra's
 * processor): each adapter's options type is this plus what its framework needs
 * (`store` and `summarizer`, whose defaults depend on the framework). One event
 * callback name everywhere: `onEvent`.
 */
export type AdapterOptions = {
  /**
   * When and how much to compact (`contextWindow`, `trigger`, `keepRecentTokens`, …).
   * Without `contextWindow`, the window comes from the model (each adapter says how).
   * @default DEFAULT_COMPACTION_SETTINGS
   */
  settings?: Partial<CompactionSettings>;
  /**
   * Counts tokens where the provider has not reported them yet. Counts are cached
   * per message for the whole process, by the counter's `name`.
   * @default gptTokenizerCounter('o200k_base')
   */
  counter?: TokenCounter;
  /**
   * Called with every compaction event (`compaction:start`, `compaction:end`,
   * `compaction:error`, `store:error`), in addition to a session's `on()` listeners.
   * @default undefined
   */
  onEvent?: (event: CompactionEvent) => void;
};
