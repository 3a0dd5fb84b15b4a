import type { ContextUsage } from '@compaction/ai-sdk/ui';
import { formatTokens } from './format-tokens.js';

/** Tokens / window as a bar that changes colour as it fills, with the trigger marked. */
export function ContextBar({ usage, compactions }: { usage: ContextUsage; compactions: number }) {
  return (
    <div
      className="context-bar"
      data-level={usage.level}
      data-tokens={usage.tokens}
      data-window={usage.window}
      data-trigger={usage.trigger}
      title={`${usage.tokens} of ${usage.window} tokens; compaction at ${usage.trigger}`}
    >
      <div className="bar">
        <div className="fill" style={{ width: `${usage.percent}%` }} />
        <div className="trigger" style={{ left: `${usage.triggerPercent}%` }} />
      </div>
      <span className="figures">
        {formatTokens(usage.tokens)} / {formatTokens(usage.window)} tokens · {usage.percent}%
        {compactions > 0 ? ` · ${compactions} compaction${compactions === 1 ? '' : 's'}` : ''}
      </span>
    </div>
  );
}
