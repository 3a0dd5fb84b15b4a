import { existsSync, readFileSync } from 'node:fs';

/**
 * Claude Code's own summary of a session's compacted span, from the `<session>.compaction-agent.jsonl`
 * file recorded beside the session: the text of the summarizing agent's answer (its
 * `<analysis>` and `<summary>`, which Claude Code put into the context as the summary), or
 * undefined when there is no such file or no answer in it. With several compactions, the
 * answers are returned in order.
 */
export function recordedSummaries(sessionFile: string): string[] {
  const agentFile = sessionFile.replace(/\.jsonl$/, '.compaction-agent.jsonl');
  if (!existsSync(agentFile)) return [];
  const answers: string[] = [];
  for (const line of readFileSync(agentFile, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let record: { type?: unknown; message?: { role?: unknown; content?: unknown } };
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    if (record.type !== 'assistant' || record.message?.role !== 'assistant') continue;
    const content = record.message.content;
    const text = Array.isArray(content)
      ? content
          .map((block: { type?: unknown; text?: unknown }) =>
            block.type === 'text' && typeof block.text === 'string' ? block.text : '',
          )
          .join('')
      : typeof content === 'string'
        ? content
        : '';
    if (text.trim()) answers.push(text.trim());
  }
  return answers;
}
