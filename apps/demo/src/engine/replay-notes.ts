import { formatTokens } from '../cli/format-tokens.js';
import type { ReplayFigures } from './replay-figures.js';

/**
 * What a reader needs to compare a replay's figures with another's. Today: where the
 * recorded user ran `/compact` by hand, only the core driver can compact at the same
 * point (the adapters' hooks have no manual entry point in a replay), so a replay
 * through an adapter compacts only at the trigger and sends more input than core's.
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
      : `The recorded user ran /compact by hand ${where}; the ${figures.adapter} adapter has no manual entry point in a replay, so it compacted only at the trigger and sends more input than a replay through core (which compacts by hand there too). Compare with --adapter core.`,
  ];
}
