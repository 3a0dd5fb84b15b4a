import type { CompactionBoundary } from '@compaction/ai-sdk/ui';
import { useState } from 'react';
import { formatTokens } from './format-tokens.js';

/**
 * Where the last compaction cut: "N messages summarized · 162K → 31K tokens", the summary on
 * click; after a prune (nothing summarized), "Old tool outputs cleared · 32K → 13K tokens".
 */
export function CompactionMarker({ boundary, summarized }: { boundary: CompactionBoundary; summarized: number }) {
  const [open, setOpen] = useState(false);
  const pruned = boundary.strategy === 'prune';
  return (
    <section
      className="compaction-marker"
      data-version={boundary.version}
      data-first-kept={boundary.firstKeptMessageId}
    >
      <button type="button" className="marker-line" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="label">
          {pruned ? 'Old tool outputs cleared' : `${summarized} messages summarized`} ·{' '}
          {formatTokens(boundary.tokensBefore)} → {formatTokens(boundary.tokensAfter)} tokens
        </span>
        {pruned ? null : <span className="hint">{open ? 'hide summary' : 'show summary'}</span>}
      </button>
      {open && !pruned ? <pre className="compaction-summary">{boundary.summary}</pre> : null}
    </section>
  );
}
