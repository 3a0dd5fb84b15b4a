import type { PeerOptionHint } from './check-option-keys.js';
import { SETTINGS_AT_TOP_LEVEL } from './check-settings-input.js';

const LANGCHAIN = "LangChain's summarizationMiddleware";

/**
 * The names users copy into any adapter's options, with ours: every setting given
 * next to `settings` instead of inside it, and the options of LangChain's
 * `summarizationMiddleware` and of token limiters that are settings here.
 * `checkAdapterOptions` always uses them; an adapter's table adds its own
 * framework's names (and may say one differently).
 */
export const ADAPTER_OPTION_HINTS: Readonly<Record<string, PeerOptionHint>> = Object.freeze({
  ...SETTINGS_AT_TOP_LEVEL,
  trigger: {
    from: LANGCHAIN,
    use: 'settings: { trigger } (settings: { trigger: N } for N tokens, settings: { trigger: 0.8 } for a fraction of the window)',
  },
  keep: { from: LANGCHAIN, use: 'settings: { keepRecentMessages: N } or settings: { keepRecentTokens: N }' },
  maxTokensBeforeSummary: { from: LANGCHAIN, use: 'settings: { trigger: N }' },
  messagesToKeep: { from: LANGCHAIN, use: 'settings: { keepRecentMessages: N }' },
  tokenCounter: { from: LANGCHAIN, use: 'counter (a core TokenCounter, e.g. gptTokenizerCounter())' },
  maxTokens: { from: 'a token limiter', use: 'settings: { contextWindow, trigger }' },
});
