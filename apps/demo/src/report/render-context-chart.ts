import { formatTokens, withThousands } from '../cli/format-tokens.js';
import type { ReplayFigures } from '../engine/replay-figures.js';
import { callTicks } from './call-ticks.js';
import { escapeHtml } from './escape-html.js';
import { niceCeiling } from './nice-ceiling.js';

const WIDTH = 960;
const HEIGHT = 380;
const MARGIN = { top: 16, right: 20, bottom: 52, left: 92 };
const TOKEN_TICKS = 5;

/**
 * An inline SVG line chart of context tokens per model call (`svg.context-chart`), both
 * axes titled with their unit and ticked: the recorded context (`.series-recorded`, when
 * the recording has it), the full history without compaction (`.series-uncompacted`),
 * ours with compaction (`.series-ours`) and the trigger (`.trigger-line`). At each of our
 * compactions a `.compaction-marker` (`data-call`: the call it took effect on) and a
 * `.compaction-drop` from the context it found to the context it left; a dashed
 * `.recorded-compaction-marker` at each of the recording's. Every call above the trigger
 * is a `circle.over-trigger`, every compaction error a `.compaction-error-marker` (both
 * with `data-call`).
 */
export function renderContextChart(figures: ReplayFigures, id: string): string {
  const calls = figures.calls;
  const trigger = figures.settings.triggerTokens;
  const maxValue = Math.max(
    trigger <= figures.settings.contextWindow ? trigger : 0,
    ...calls.map((call) => Math.max(call.recorded ?? 0, call.ours, call.uncompacted)),
    ...figures.compactions.map((compaction) => compaction.tokensBefore),
  );
  const top = niceCeiling(maxValue * 1.05);
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const plotBottom = MARGIN.top + plotHeight;
  const x = (call: number): number =>
    MARGIN.left + (calls.length <= 1 ? plotWidth / 2 : ((call - 1) / (calls.length - 1)) * plotWidth);
  const y = (tokens: number): number => MARGIN.top + plotHeight - (Math.min(tokens, top) / top) * plotHeight;
  const oursByCall = new Map(calls.map((call) => [call.call, call.ours]));
  const points = (values: (number | null)[]): string =>
    values
      .map((value, index) => (value === null ? '' : `${x(index + 1).toFixed(1)},${y(value).toFixed(1)}`))
      .filter(Boolean)
      .join(' ');
  const parts: string[] = [];
  for (let tick = 0; tick <= TOKEN_TICKS; tick += 1) {
    const value = (top / TOKEN_TICKS) * tick;
    const tickY = y(value).toFixed(1);
    parts.push(
      `<line class="grid" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${tickY}" y2="${tickY}"/>`,
      `<line class="tick-mark" x1="${MARGIN.left - 5}" x2="${MARGIN.left}" y1="${tickY}" y2="${tickY}"/>`,
      `<text class="tick" x="${MARGIN.left - 8}" y="${(y(value) + 4).toFixed(1)}" text-anchor="end">${formatTokens(value)}</text>`,
    );
  }
  for (const call of callTicks(calls.length)) {
    const tickX = x(call).toFixed(1);
    parts.push(
      `<line class="tick-mark" x1="${tickX}" x2="${tickX}" y1="${plotBottom}" y2="${plotBottom + 5}"/>`,
      `<text class="tick" x="${tickX}" y="${plotBottom + 18}" text-anchor="middle">${call}</text>`,
    );
  }
  parts.push(
    `<line class="axis" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${plotBottom}" y2="${plotBottom}"/>`,
    `<line class="axis" x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${plotBottom}"/>`,
    `<text class="axis-title x-title" x="${(MARGIN.left + plotWidth / 2).toFixed(1)}" y="${HEIGHT - 8}" text-anchor="middle">model call (1–${calls.length})</text>`,
    `<text class="axis-title y-title" transform="translate(16 ${(MARGIN.top + plotHeight / 2).toFixed(1)}) rotate(-90)" text-anchor="middle">context sent (tokens)</text>`,
  );
  if (trigger <= top) {
    const triggerY = y(trigger).toFixed(1);
    parts.push(
      `<line class="trigger-line" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${triggerY}" y2="${triggerY}"><title>trigger ${formatTokens(trigger)} tokens</title></line>`,
    );
  }
  for (const compaction of figures.recordedCompactions) {
    if (compaction.beforeCall === null) continue;
    const markerX = x(compaction.beforeCall).toFixed(1);
    parts.push(
      `<line class="recorded-compaction-marker" data-call="${compaction.beforeCall}" x1="${markerX}" x2="${markerX}" y1="${MARGIN.top}" y2="${plotBottom}"><title>recorded compaction before call ${compaction.beforeCall}</title></line>`,
    );
  }
  for (const compaction of figures.compactions) {
    const markerX = x(compaction.beforeCall).toFixed(1);
    const title = `compaction before call ${compaction.beforeCall}: ${formatTokens(compaction.tokensBefore)} → ${formatTokens(compaction.tokensAfter)} tokens (${escapeHtml(String(compaction.strategy))})`;
    const after = compaction.nextCallTokens ?? compaction.tokensAfter;
    parts.push(
      `<line class="compaction-marker" data-call="${compaction.beforeCall}" data-strategy="${escapeHtml(String(compaction.strategy))}" x1="${markerX}" x2="${markerX}" y1="${MARGIN.top}" y2="${plotBottom}"><title>${title}</title></line>`,
      `<line class="compaction-drop" data-call="${compaction.beforeCall}" x1="${markerX}" x2="${markerX}" y1="${y(compaction.tokensBefore).toFixed(1)}" y2="${y(after).toFixed(1)}"><title>${title}</title></line>`,
      `<circle class="compaction-from" cx="${markerX}" cy="${y(compaction.tokensBefore).toFixed(1)}" r="3.5"><title>${title}</title></circle>`,
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
  for (const call of figures.overTriggerCalls) {
    parts.push(
      `<circle class="over-trigger" data-call="${call.call}" cx="${x(call.call).toFixed(1)}" cy="${y(call.tokens).toFixed(1)}" r="4"><title>call ${call.call} sent ${formatTokens(call.tokens)} tokens, above the trigger of ${formatTokens(trigger)}</title></circle>`,
    );
  }
  for (const error of figures.compactionErrors) {
    const errorX = x(Math.min(error.beforeCall, calls.length));
    const errorY = y(oursByCall.get(error.beforeCall) ?? trigger);
    parts.push(
      `<path class="compaction-error-marker" data-call="${error.beforeCall}" d="M${(errorX - 5).toFixed(1)},${(errorY - 5).toFixed(1)}l10,10m0,-10l-10,10"><title>compaction error before call ${error.beforeCall}: ${escapeHtml(withThousands(error.message))}</title></path>`,
    );
  }
  return `<svg id="${id}" class="context-chart" data-calls="${calls.length}" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="Context tokens sent per model call">${parts.join('')}</svg>`;
}
