import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { checkOptionKeys, describeValue, type PeerOptionHint } from './check-option-keys.js';
import type { CompactionSettings } from './compaction-settings.js';

/**
 * Every setting. Typed against `CompactionSettings`, so a new setting that is not
 * listed here fails the typecheck instead of being rejected at run time as unknown.
 */
const SETTINGS = {
  contextWindow: true,
  trigger: true,
  reserveTokens: true,
  keepRecentTokens: true,
  keepRecentMessages: true,
  minMessages: true,
  splitTurnMinMessages: true,
  pruneToolOutputs: true,
  minReduction: true,
  protectedTools: true,
  summaryTimeoutMs: true,
  historyTools: true,
} satisfies Record<keyof CompactionSettings, true>;

/** The keys of `CompactionSettings`. */
export const SETTING_KEYS = Object.keys(SETTINGS) as (keyof CompactionSettings)[];

/** An absolute trigger below this many tokens is rejected before the window is known. */
export const MIN_ABSOLUTE_TRIGGER = 100;

const LANGCHAIN = "LangChain's summarizationMiddleware";
const MASTRA = "Mastra's TokenLimiter";

/** Setting names of peer libraries that users copy, and ours. */
export const PEER_SETTING_HINTS: Readonly<Record<string, PeerOptionHint>> = {
  keep: {
    from: LANGCHAIN,
    use: 'keepRecentMessages: N (for keep: { messages: N }) or keepRecentTokens: N (for keep: { tokens: N })',
  },
  maxTokensBeforeSummary: { from: LANGCHAIN, use: 'trigger: N (tokens) or trigger: 0.8 (a fraction of contextWindow)' },
  messagesToKeep: { from: LANGCHAIN, use: 'keepRecentMessages' },
  summaryPrefix: { from: LANGCHAIN, use: "the summarizer's prompts (llmSummarizer({ prompts }))" },
  tokenCounter: { from: LANGCHAIN, use: 'the session option counter (a TokenCounter)' },
  limit: { from: MASTRA, use: 'contextWindow (the window) and trigger (when to compact)' },
  maxTokens: { from: 'a token limiter', use: 'contextWindow (the window) and trigger (when to compact)' },
  threshold: { from: 'other compaction libraries', use: 'trigger (a fraction of the window, or tokens)' },
  reserve: { from: 'other compaction libraries', use: 'reserveTokens' },
  keepRecent: { from: 'pi-style settings', use: 'keepRecentTokens (tokens) or keepRecentMessages (messages)' },
  maxContextTokens: { from: 'other libraries', use: 'contextWindow' },
  contextLength: { from: 'other libraries', use: 'contextWindow' },
};

/**
 * Hints for options objects that hold `settings`: a setting given next to it, at
 * the top level (`{ trigger: 0.5 }` for `{ settings: { trigger: 0.5 } }`), is told where it goes.
 */
export const SETTINGS_AT_TOP_LEVEL: Readonly<Record<string, PeerOptionHint>> = Object.fromEntries(
  SETTING_KEYS.map((key) => [key, { use: `settings: { ${key} } (it is a setting)` }]),
);

const WHOLE_NUMBERS = [
  'contextWindow',
  'reserveTokens',
  'keepRecentTokens',
  'keepRecentMessages',
  'minMessages',
  'splitTurnMinMessages',
  'summaryTimeoutMs',
] as const;

/**
 * The checks of settings that need no context window: an object, known keys
 * (a peer library's name gets ours in the message), and each value of the right
 * type — numbers finite, counts whole, `pruneToolOutputs` a boolean, `trigger` a
 * number (LangChain's `trigger: { tokens: N }` is told to be `trigger: N`). Throws
 * {@link InvalidSettingsError} naming the setting. `resolveSettings` runs it first;
 * adapters run it at construction, before any model (and so any window) is known.
 *
 * @param prefix - prepended to the setting in errors (`settings.` when nested in options).
 * @default prefix ''
 */
export function checkSettingsInput(settings: unknown, prefix = ''): void {
  if (settings === undefined) return;
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
    throw new InvalidSettingsError({
      setting: prefix ? prefix.slice(0, -1) : 'settings',
      problem: `must be an object of CompactionSettings, got ${describeValue(settings)}; for a preset pass COMPACTION_PRESETS.economy.settings`,
    });
  }
  checkOptionKeys(settings, SETTING_KEYS, 'setting', PEER_SETTING_HINTS, prefix);
  const values = settings as Record<string, unknown>;
  const fail = (setting: string, problem: string): never => {
    throw new InvalidSettingsError({ setting: `${prefix}${setting}`, problem });
  };
  const trigger = values.trigger;
  if (trigger !== undefined) {
    if (typeof trigger === 'object' && trigger !== null && !Array.isArray(trigger)) {
      const shape = trigger as Record<string, unknown>;
      const suggestion =
        typeof shape.tokens === 'number'
          ? `trigger: ${shape.tokens}`
          : typeof shape.fraction === 'number'
            ? `trigger: ${shape.fraction}`
            : 'trigger: 0.8 (a fraction of contextWindow) or trigger: 100_000 (tokens)';
      fail('trigger', `takes a number, not ${describeValue(trigger)} (${LANGCHAIN}'s form); use ${suggestion}`);
    }
    if (typeof trigger !== 'number' || !Number.isFinite(trigger) || trigger < 0) {
      fail('trigger', `must be 0 (off), a fraction in (0, 1] or a token count > 1, got ${describeValue(trigger)}`);
    }
    if ((trigger as number) > 1 && (trigger as number) < MIN_ABSOLUTE_TRIGGER) {
      // Known before any window is: no model's prompt fits under 100 tokens (the window's floors come in resolveSettings).
      const fraction = (trigger as number) / 100;
      fail(
        'trigger',
        `${trigger} is read as ${trigger} tokens, so every call would compact; for a share of the window use a fraction, e.g. trigger: ${fraction > 0.05 ? fraction : 0.8}`,
      );
    }
  }
  for (const name of WHOLE_NUMBERS) {
    const value = values[name];
    if (value === undefined) continue;
    if (name === 'keepRecentMessages' && typeof value === 'object' && value !== null) {
      fail(name, `takes a number, not ${describeValue(value)}`);
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      fail(
        name,
        `must be a whole number of ${name.endsWith('Messages') ? 'messages' : 'tokens'} ≥ 0, got ${describeValue(value)}`,
      );
    }
  }
  for (const name of ['pruneToolOutputs', 'historyTools'] as const) {
    if (values[name] !== undefined && typeof values[name] !== 'boolean') {
      fail(name, `must be true or false, got ${describeValue(values[name])}`);
    }
  }
  const tools = values.protectedTools;
  if (tools !== undefined && (!Array.isArray(tools) || tools.some((name) => typeof name !== 'string'))) {
    fail('protectedTools', `must be an array of tool names (strings), got ${describeValue(tools)}`);
  }
  const minReduction = values.minReduction;
  if (minReduction !== undefined && (typeof minReduction !== 'number' || !(minReduction >= 0 && minReduction < 1))) {
    fail('minReduction', `must be a fraction in [0, 1), got ${describeValue(minReduction)}`);
  }
}
