export {
  type CompactionSettings,
  DEFAULT_COMPACTION_SETTINGS,
  type ResolvedSettings,
  resolveSettings,
  triggerTokens,
} from './compaction-settings.js';
