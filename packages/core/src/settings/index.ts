export { checkCompactOptions } from './check-compact-options.js';
export { checkEventListener } from './check-event-listener.js';
export { checkOptionKeys, describeValue, type PeerOptionHint } from './check-option-keys.js';
export { checkSessionId, isBlankString, type SessionIdCheckOptions } from './check-session-id.js';
export { checkSessionOptions, SESSION_OPTION_KEYS } from './check-session-options.js';
export {
  checkSettingsInput,
  MIN_ABSOLUTE_TRIGGER,
  PEER_SETTING_HINTS,
  SETTING_KEYS,
  SETTINGS_AT_TOP_LEVEL,
} from './check-settings-input.js';
export {
  type CompactionSettings,
  DEFAULT_COMPACTION_SETTINGS,
  MIN_ABSOLUTE_TRIGGER_SHARE,
  type ResolvedSettings,
  resolveSettings,
  triggerTokens,
} from './compaction-settings.js';
export {
  COMPACTION_PRESETS,
  type CompactionPreset,
  DEFAULT_PRESET,
  ECONOMY_PRESET,
} from './presets.js';
export { resolveSummarizerOption, type SummarizerOptionResolver } from './resolve-summarizer-option.js';
