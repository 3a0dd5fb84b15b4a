export { heuristicCounter } from './tokens/heuristic-counter.js';
export type { TokenCounter } from './tokens/token-counter.js';
