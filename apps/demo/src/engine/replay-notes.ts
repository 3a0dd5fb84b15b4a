import { formatTokens } from '../cli/format-tokens.js';
import type { ReplayFigures } from './replay-figures.js';

/**
 * What a reader needs to compare a replay's figures with the recording's. Today: where
 * the recorded user ran `/compact` by hand, every driver compacts by hand too (core and
 * the LangChain memory right there, the AI SDK, LangChain agent and Mastra hooks at the
 * next model call, through their session's `requestCompaction`); the note says whether
 * this replay did.
 */
export function replayNotes(figures: Pick<ReplayFigures, 'adapter' | 'compactions' | 'recordedCompactions'>): string[] {
  const manual = figures.recordedCompactions.filter((compaction) => compaction.trigger === 'manual');
  if (manual.length === 0) return [];
  const replayedByHand = figures.compactions.some((compaction) => compaction.trigger === 'manual');
  const where = manual
    .map(
      (compaction) => `before call ${compaction.beforeCall ?? '?'} (${formatTokens(compaction.preTokens ?? 0)} tokens)`,
    )
    .join(', ');
  return [
    replayedByHand
      ? `The recorded user ran /compact by hand ${where}; this replay compacted by hand at the same point, as that user would have.`
      : `The recorded user ran /compact by hand ${where}; this replay through ${figures.adapter} made no manual compaction there (nothing to compact), so its figures after that point are not comparable with the recording's.`,
  ];
}
