import { formatCompaction } from '../cli/format-compaction.js';
import { formatChange, formatTokens } from '../cli/format-tokens.js';
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
    key: 'inputTokens' | 'maxContextTokens' | 'summarizationInputTokens' | 'costUnits',
  ): string => {
    const recordedValue = recorded?.[key];
    return `<tr data-figure="${key}"><td>${label}</td><td class="recorded">${recordedValue === undefined ? '—' : formatTokens(recordedValue)}</td><td class="ours">${formatTokens(ours[key])}</td><td>${recordedValue === undefined ? '' : formatChange(recordedValue, ours[key])}</td></tr>`;
  };
  return `<table class="totals" id="${section.id}-totals"><thead><tr><th></th><th>${escapeHtml(section.recordedLabel ?? 'recorded')}</th><th>ours</th><th>change</th></tr></thead><tbody>${row('total input tokens', 'inputTokens')}${row('largest context', 'maxContextTokens')}${row('summarization input', 'summarizationInputTokens')}${row('cost units', 'costUnits')}</tbody></table>`;
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
    '<span class="marker"><i></i>compaction</span>',
    '<span class="trigger"><i></i>trigger</span>',
  ].join('');
  return `<section class="replay" id="${section.id}" data-adapter="${figures.adapter}">
<h2>${escapeHtml(section.title)}</h2>
<p class="meta">${escapeHtml(`${figures.calls.length} model calls through ${figures.adapter}; window ${formatTokens(figures.settings.contextWindow)}, trigger ${formatTokens(figures.settings.triggerTokens)}, keep ${formatTokens(figures.settings.keepRecentTokens)}`)}</p>
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
<p class="meta">Cost units: input ×1, cache write ×1.25, cache read ×0.1, output ×5. Ours assumes the provider caches the longest unchanged prefix of the previous call's prompt; summaries count as model calls.</p>
${sections.map(renderSection).join('\n')}
</main></body>
</html>
`;
}
