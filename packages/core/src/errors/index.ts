export { CompactionError } from './compaction-error.js';
export { InvalidMessageError } from './invalid-message-error.js';
export { InvalidSettingsError } from './invalid-settings-error.js';
export { InvalidStateError } from './invalid-state-error.js';
export { InvalidUsageError } from './invalid-usage-error.js';
export { SummaryRejectedError, type SummaryRejection } from './summary-rejected-error.js';
