export {
  type CompactionSettings,
  DEFAULT_COMPACTION_SETTINGS,
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
