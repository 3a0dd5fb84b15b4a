export { detectSessionFormat, type SessionFormat } from './detect-session-format.js';
export { parseClaudeCodeSession } from './parse-claude-code-session.js';
export {
  parseSessionJson,
  SESSION_JSON_FORMAT,
  SESSION_JSON_VERSION,
  type SessionJson,
  stringifySessionJson,
} from './parse-session-json.js';
export { type ImportSummary, summarizeImport } from './summarize-import.js';
export type {
  ClaudeCodeImportOptions,
  ImportedSession,
  ImportWarning,
  RecordedCall,
  RecordedCompaction,
  RecordedUsage,
} from './types.js';
