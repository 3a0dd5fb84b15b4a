import { formatTokens } from '../cli/format-tokens.js';
import type { ReplayFigures } from '../engine/replay-figures.js';
import { escapeHtml } from './escape-html.js';
import { niceCeiling } from './nice-ceiling.js';

const WIDTH = 960;
const HEIGHT = 360;
const MARGIN = { top: 16, right: 20, bottom: 40, left: 76 };
const TICKS = 5;

/**
 * An inline SVG line chart of context tokens per call (`svg.context-chart`): the recorded
 * context (`.series-recorded`, when the recording has it), the full history without
 * compaction (`.series-uncompacted`), ours with compaction (`.series-ours`), the trigger
 * (`.trigger-line`), and a vertical `.compaction-marker` (ours) or
 * `.recorded-compaction-marker` line at each compaction, with `data-call`.
 */
export function renderContextChart(figures: ReplayFigures, id: string): string {
  const calls = figures.calls;
  const maxValue = Math.max(
    figures.settings.triggerTokens <= figures.settings.contextWindow ? figures.settings.triggerTokens : 0,
    ...calls.map((call) => Math.max(call.recorded ?? 0, call.ours, call.uncompacted)),
  );
  const top = niceCeiling(maxValue * 1.05);
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (call: number): number =>
    MARGIN.left + (calls.length <= 1 ? plotWidth / 2 : ((call - 1) / (calls.length - 1)) * plotWidth);
  const y = (tokens: number): number => MARGIN.top + plotHeight - (tokens / top) * plotHeight;
  const points = (values: (number | null)[]): string =>
    values
      .map((value, index) => (value === null ? '' : `${x(index + 1).toFixed(1)},${y(value).toFixed(1)}`))
      .filter(Boolean)
      .join(' ');
  const parts: string[] = [];
  for (let tick = 0; tick <= TICKS; tick += 1) {
    const value = (top / TICKS) * tick;
    parts.push(
      `<line class="grid" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(value).toFixed(1)}" y2="${y(value).toFixed(1)}"/>`,
      `<text class="tick" x="${MARGIN.left - 8}" y="${(y(value) + 4).toFixed(1)}" text-anchor="end">${formatTokens(value)}</text>`,
    );
  }
  parts.push(
    `<text class="tick" x="${MARGIN.left}" y="${HEIGHT - 12}">call 1</text>`,
    `<text class="tick" x="${WIDTH - MARGIN.right}" y="${HEIGHT - 12}" text-anchor="end">call ${calls.length}</text>`,
  );
  if (figures.settings.triggerTokens <= top) {
    const triggerY = y(figures.settings.triggerTokens).toFixed(1);
    parts.push(
      `<line class="trigger-line" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${triggerY}" y2="${triggerY}"><title>trigger ${formatTokens(figures.settings.triggerTokens)} tokens</title></line>`,
    );
  }
  for (const compaction of figures.recordedCompactions) {
    if (compaction.beforeCall === null) continue;
    const markerX = x(compaction.beforeCall).toFixed(1);
    parts.push(
      `<line class="recorded-compaction-marker" data-call="${compaction.beforeCall}" x1="${markerX}" x2="${markerX}" y1="${MARGIN.top}" y2="${MARGIN.top + plotHeight}"><title>recorded compaction before call ${compaction.beforeCall}</title></line>`,
    );
  }
  for (const compaction of figures.compactions) {
    const markerX = x(compaction.beforeCall).toFixed(1);
    parts.push(
      `<line class="compaction-marker" data-call="${compaction.beforeCall}" data-strategy="${escapeHtml(String(compaction.strategy))}" x1="${markerX}" x2="${markerX}" y1="${MARGIN.top}" y2="${MARGIN.top + plotHeight}"><title>compaction before call ${compaction.beforeCall}: ${formatTokens(compaction.tokensBefore)} → ${formatTokens(compaction.tokensAfter)} tokens (${escapeHtml(String(compaction.strategy))})</title></line>`,
    );
  }
  if (calls.some((call) => call.recorded !== null)) {
    parts.push(
      `<polyline class="series series-recorded" data-series="recorded" points="${points(calls.map((call) => call.recorded))}"/>`,
    );
  }
  parts.push(
    `<polyline class="series series-uncompacted" data-series="uncompacted" points="${points(calls.map((call) => call.uncompacted))}"/>`,
    `<polyline class="series series-ours" data-series="ours" points="${points(calls.map((call) => call.ours))}"/>`,
  );
  return `<svg id="${id}" class="context-chart" data-calls="${calls.length}" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="Context tokens per model call">${parts.join('')}</svg>`;
}
