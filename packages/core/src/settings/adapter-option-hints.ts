import type { PeerOptionHint } from './check-option-keys.js';
import { PEER_SETTING_HINTS, SETTINGS_AT_TOP_LEVEL } from './check-settings-input.js';

/** Names in `PEER_SETTING_HINTS` that are not settings here, so not told to go inside `settings`. */
const NOT_SETTINGS: ReadonlySet<string> = new Set(['summaryPrefix', 'tokenCounter']);

const LANGCHAIN = "LangChain's summarizationMiddleware";

/**
 * The names users copy into any adapter's options, with ours: every setting given
 * next to `settings` instead of inside it, the peer libraries' setting names
 * (`PEER_SETTING_HINTS`: LangChain's `keep`, a limiter's `maxTokens`, …) told to go
 * inside `settings`, LangChain's `trigger` and `tokenCounter`.
 * `checkAdapterOptions` always uses them; an adapter's table adds its own
 * framework's names (and may say one differently).
 */
export const ADAPTER_OPTION_HINTS: Readonly<Record<string, PeerOptionHint>> = Object.freeze({
  ...SETTINGS_AT_TOP_LEVEL,
  ...Object.fromEntries(
    Object.entries(PEER_SETTING_HINTS)
      .filter(([name]) => !NOT_SETTINGS.has(name))
      .map(([name, hint]) => [name, { ...hint, use: `settings with ${hint.use}` }]),
  ),
  trigger: {
    from: LANGCHAIN,
    use: 'settings: { trigger } (settings: { trigger: N } for N tokens, settings: { trigger: 0.8 } for a fraction of the window)',
  },
  tokenCounter: { from: LANGCHAIN, use: 'counter (a core TokenCounter, e.g. gptTokenizerCounter())' },
});
