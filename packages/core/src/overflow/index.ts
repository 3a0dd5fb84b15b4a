export { CONTEXT_OVERFLOW_PATTERNS, type ContextOverflowPattern } from './context-overflow-patterns.js';
export { isContextOverflowError } from './is-context-overflow-error.js';
export { isUsageOverflow } from './is-usage-overflow.js';
export { matchContextOverflowError } from './match-context-overflow-error.js';
