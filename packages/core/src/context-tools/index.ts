export { type Bm25Hit, type Bm25Index, createBm25Index } from './bm25-index.js';
export {
  CONTEXT_TOOL_NAMES,
  type ContextStatsOutput,
  type ContextTool,
  type ContextTools,
  type ContextToolsOptions,
  createContextTools,
  type ReadMessageOutput,
  type SearchHistoryOutput,
  type ToolInputSchema,
} from './context-tools.js';
export { InvalidToolInputError } from './invalid-tool-input-error.js';
export { messageSearchText } from './message-search-text.js';
export { type HistorySearchHit, MAX_SEARCH_HITS, type SearchHistoryOptions, searchHistory } from './search-history.js';
export { searchTerms } from './search-terms.js';
