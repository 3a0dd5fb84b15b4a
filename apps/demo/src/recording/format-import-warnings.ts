import type { ImportWarning } from '@compaction/claude-code-import';

/** One line per importer warning, `warning: <file>:<line>: <problem>`, so none is silent. */
export function formatImportWarnings(file: string, warnings: readonly ImportWarning[]): string[] {
  return warnings.map((warning) => `warning: ${file}:${warning.line}: ${warning.problem}`);
}
