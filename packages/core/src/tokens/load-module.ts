import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/**
 * Loads a CommonJS build synchronously, on demand. The tokenizers are loaded this
 * way on their first count, so that importing `@compaction/core` loads neither
 * (they cost ~100 MB and ~0.3 s) and counting stays synchronous for callers.
 */
export function loadModule<T>(specifier: string): T {
  return requireHere(specifier) as T;
}
