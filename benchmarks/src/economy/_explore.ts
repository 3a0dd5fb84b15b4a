import { structuredSummarizer } from '@compaction/core';
import { readRecording, replayRecording } from '@compaction/demo';
const dir = '/work/shared/fixtures/claude-code/';
const files = ['258c7280-ae70-4798-800f-63464d01a85d.jsonl', 'ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl'];
const recs = await Promise.all(files.map((f) => readRecording(dir + f)));
const [triggers, keeps, budgets] = process.argv.slice(2).map((a) => a.split(',').map(Number));
for (const trigger of triggers!) for (const keep of keeps!) for (const budget of budgets!) {
  const out: string[] = [];
  for (const rec of recs) {
    const f = await replayRecording(rec, { adapter: 'core', settings: { trigger, keepRecentTokens: keep, pruneToolOutputs: true }, summarizer: structuredSummarizer({ maxTokens: budget }) });
    const r = f.totals.recorded!, o = f.totals.ours;
    const sizes = f.compactions.map((c) => c.strategy[0]).join('');
    out.push(`${rec.file.slice(-50, -46)} max=${o.maxContextTokens} n=${f.compactions.length}(${sizes}) in=${(1 - o.inputTokens / r.inputTokens).toFixed(3)} cost=${(1 - o.costUnits / r.costUnits).toFixed(3)} sumIn=${o.summarizationInputTokens}`);
  }
  console.log(trigger, keep, budget, '|', out.join(' | '));
}
