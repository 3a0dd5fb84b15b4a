/** The report's inline CSS (no external fonts or URLs). */
export const REPORT_STYLES = `
:root { color-scheme: light; --ours: #1f6feb; --recorded: #cf222e; --uncompacted: #8c959f; --marker: #1a7f37; --problem: #d1242f; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; background: #f6f8fa; color: #1f2328; }
main { max-width: 1040px; margin: 0 auto; padding: 24px; }
h1 { font-size: 26px; margin: 0 0 4px; }
section.replay { background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 16px 20px; margin: 20px 0; }
h2 { font-size: 20px; margin: 0 0 8px; }
h3 { font-size: 16px; margin: 16px 0 8px; }
.meta { color: #59636e; margin: 0 0 8px; }
table.totals { border-collapse: collapse; margin: 8px 0 12px; }
table.totals th, table.totals td { padding: 3px 12px; border-bottom: 1px solid #d8dee4; text-align: right; font-variant-numeric: tabular-nums; }
table.totals th:first-child, table.totals td:first-child { text-align: left; }
figure.chart { margin: 8px 0 12px; }
svg.context-chart { width: 100%; height: auto; background: #fff; }
svg .grid { stroke: #eaeef2; }
svg .tick { font-size: 12px; fill: #59636e; }
svg .tick-mark, svg .axis { stroke: #8c959f; }
svg .axis-title { font-size: 13px; fill: #1f2328; }
svg .compaction-drop { stroke: var(--marker); stroke-width: 3; }
svg .compaction-from { fill: #fff; stroke: var(--marker); stroke-width: 2; }
svg .over-trigger { fill: var(--problem); }
svg .compaction-error-marker { stroke: var(--problem); stroke-width: 2.5; }
svg .series { fill: none; stroke-width: 2; stroke-linejoin: round; }
svg .series-ours { stroke: var(--ours); }
svg .series-recorded { stroke: var(--recorded); }
svg .series-uncompacted { stroke: var(--uncompacted); stroke-dasharray: 5 4; }
svg .trigger-line { stroke: #bf8700; stroke-dasharray: 2 4; }
svg .compaction-marker { stroke: var(--marker); stroke-width: 1; stroke-opacity: 0.35; }
svg .recorded-compaction-marker { stroke: var(--recorded); stroke-width: 1; stroke-dasharray: 6 3; }
.legend span { display: inline-block; margin-right: 18px; }
.legend i { display: inline-block; width: 18px; height: 3px; vertical-align: middle; margin-right: 6px; }
.legend .ours i { background: var(--ours); }
.legend .recorded i { background: var(--recorded); }
.legend .uncompacted i { background: var(--uncompacted); }
.legend .trigger i { background: #bf8700; }
.legend .marker i { background: var(--marker); width: 3px; height: 14px; }
.legend .over i { background: var(--problem); width: 8px; height: 8px; border-radius: 50%; }
.legend .error i { background: var(--problem); width: 10px; height: 3px; transform: rotate(45deg); }
p.status { font-weight: 600; margin: 4px 0 8px; }
p.status.ok { color: var(--marker); }
p.status.problem, ol.compaction-errors, p.over-trigger { color: var(--problem); }
p.note { color: #59636e; font-style: italic; }
ol.compactions { padding-left: 20px; }
li.compaction { margin: 8px 0; }
pre.summary-text { white-space: pre-wrap; background: #f6f8fa; border: 1px solid #d8dee4; border-radius: 6px; padding: 10px 12px; font-size: 13px; max-height: 480px; overflow: auto; }
`;
