import { formatCompaction } from '../cli/format-compaction.js';
import { formatChange, formatTokens, withThousands } from '../cli/format-tokens.js';
import type { ReplayFigures } from '../engine/replay-figures.js';
import { escapeHtml } from './escape-html.js';
import { renderContextChart } from './render-context-chart.js';
import { REPORT_STYLES } from './report-styles.js';

/** One replay shown in the report. */
export type ReportSection = {
  /** Unique within the report; prefixes the ids of the section's elements. */
  id: string;
  title: string;
  figures: ReplayFigures;
  /** Name of the recorded side, e.g. `Claude Code (recorded)`. @default 'recorded' */
  recordedLabel?: string;
};

function totalsTable(section: ReportSection): string {
  const { recorded, ours } = section.figures.totals;
  const row = (
    label: string,
    key: 'inputTokens' | 'callInputTokens' | 'maxContextTokens' | 'summarizationInputTokens' | 'costUnits',
  ): string => {
    const recordedValue = recorded?.[key];
    return `<tr data-figure="${key}"><td>${label}</td><td class="recorded">${recordedValue === undefined ? '—' : formatTokens(recordedValue)}</td><td class="ours">${formatTokens(ours[key])}</td><td>${recordedValue === undefined ? '' : formatChange(recordedValue, ours[key])}</td></tr>`;
  };
  return `<table class="totals" id="${section.id}-totals"><thead><tr><th></th><th>${escapeHtml(section.recordedLabel ?? 'recorded')}</th><th>ours</th><th>change</th></tr></thead><tbody>${row('input tokens (summaries included)', 'inputTokens')}${row('… of which model calls', 'callInputTokens')}${row('… of which summaries', 'summarizationInputTokens')}${row('largest context', 'maxContextTokens')}${row('cost units', 'costUnits')}</tbody></table>`;
}

function compactionsList(section: ReportSection): string {
  const { compactions } = section.figures;
  if (compactions.length === 0) return '<p class="no-compactions">No compaction was needed.</p>';
  const items = compactions.map((compaction, index) => {
    const summary = compaction.summary
      ? `<details class="summary" open><summary>Summary after compaction ${index + 1} (${formatTokens(compaction.summary.length)} characters)</summary><pre class="summary-text">${escapeHtml(compaction.summary)}</pre></details>`
      : '<p class="no-summary">No summary: old tool outputs were cleared instead.</p>';
    return `<li class="compaction" id="${section.id}-compaction-${index + 1}" data-before-call="${compaction.beforeCall}" data-strategy="${escapeHtml(String(compaction.strategy))}">Before call ${compaction.beforeCall}: ${escapeHtml(formatCompaction(compaction))}${summary}</li>`;
  });
  return `<ol class="compactions" id="${section.id}-compactions">${items.join('')}</ol>`;
}

/**
 * What went wrong, where a reader looks first: a status line (`p.status`, `data-errors`,
 * `data-over-trigger`) and, when anything did, every compaction error
 * (`ol.compaction-errors > li.compaction-error`, `data-before-call`) and the calls that
 * sent more than the trigger (`p.over-trigger`).
 */
function problems(section: ReportSection): string {
  const { compactionErrors, overTriggerCalls, settings, notes } = section.figures;
  const ok = compactionErrors.length === 0 && overTriggerCalls.length === 0;
  const status = `<p class="status ${ok ? 'ok' : 'problem'}" id="${section.id}-status" data-errors="${compactionErrors.length}" data-over-trigger="${overTriggerCalls.length}">${compactionErrors.length} compaction error${compactionErrors.length === 1 ? '' : 's'} · ${overTriggerCalls.length} call${overTriggerCalls.length === 1 ? '' : 's'} above the trigger of ${formatTokens(settings.triggerTokens)} tokens</p>`;
  const errors =
    compactionErrors.length === 0
      ? ''
      : `<ol class="compaction-errors" id="${section.id}-errors">${compactionErrors
          .map(
            (error) =>
              `<li class="compaction-error" data-before-call="${error.beforeCall}">Before call ${error.beforeCall}: ${escapeHtml(withThousands(error.message))}</li>`,
          )
          .join('')}</ol>`;
  const over =
    overTriggerCalls.length === 0
      ? ''
      : `<p class="over-trigger">Above the trigger: ${overTriggerCalls
          .map((call) => `call ${call.call} (${formatTokens(call.tokens)})`)
          .join(', ')}.</p>`;
  const noteItems = notes.map((note) => `<p class="note">${escapeHtml(note)}</p>`).join('');
  return `${status}${errors}${over}${noteItems}`;
}

function recordedSummaries(section: ReportSection): string {
  const summaries = section.figures.recordedCompactions.filter((compaction) => compaction.summary);
  if (summaries.length === 0) return '';
  const items = summaries.map(
    (compaction) =>
      `<details class="recorded-summary"><summary>${escapeHtml(section.recordedLabel ?? 'recorded')} summary before call ${compaction.beforeCall ?? '?'}</summary><pre class="summary-text">${escapeHtml(compaction.summary)}</pre></details>`,
  );
  return `<h3>The recording's own compaction</h3>${items.join('')}`;
}

function renderSection(section: ReportSection): string {
  const { figures } = section;
  const hasRecorded = figures.calls.some((call) => call.recorded !== null);
  const legend = [
    hasRecorded ? `<span class="recorded"><i></i>${escapeHtml(section.recordedLabel ?? 'recorded')}</span>` : '',
    '<span class="uncompacted"><i></i>full history (no compaction)</span>',
    '<span class="ours"><i></i>with compaction (ours)</span>',
    '<span class="marker"><i></i>compaction (took effect on this call; the drop from the context it found)</span>',
    '<span class="trigger"><i></i>trigger</span>',
    '<span class="over"><i></i>call above the trigger</span>',
    '<span class="error"><i></i>compaction error</span>',
  ].join('');
  return `<section class="replay" id="${section.id}" data-adapter="${figures.adapter}">
<h2>${escapeHtml(section.title)}</h2>
<p class="meta">${escapeHtml(`${figures.calls.length} model calls through ${figures.adapter}; window ${formatTokens(figures.settings.contextWindow)}, trigger ${formatTokens(figures.settings.triggerTokens)}, keep ${formatTokens(figures.settings.keepRecentTokens)}`)}</p>
${problems(section)}
${totalsTable(section)}
<figure class="chart">${renderContextChart(figures, `${section.id}-chart`)}<figcaption class="legend">${legend}</figcaption></figure>
<h3>Compactions</h3>
${compactionsList(section)}
${recordedSummaries(section)}
</section>`;
}

/**
 * The HTML report: one self-contained page (inline CSS and SVG, no scripts, no external
 * URLs) with, per replay, the totals, a chart of context tokens per call and every
 * compaction with its summary.
 */
export function renderReport(title: string, sections: readonly ReportSection[]): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${REPORT_STYLES}</style></head>
<body><main>
<h1>${escapeHtml(title)}</h1>
<p class="meta">Cost units: input ×1, cache write ×1.25, cache read ×0.1, output ×5. Ours assumes the provider caches the longest unchanged prefix of the previous call's prompt; summaries count as model calls; the first call is billed as recorded on both sides. Input tokens include the summarization calls on both sides.</p>
${sections.map(renderSection).join('\n')}
</main></body>
</html>
`;
}
