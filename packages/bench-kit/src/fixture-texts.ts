import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The recorded Claude Code sessions `<repo>/fixtures/claude-code/`. */
export const FIXTURES_DIR = fileURLToPath(new URL('../../../fixtures/claude-code/', import.meta.url));

/** One piece of text of a recorded session, with what kind of content it was. */
export type FixtureText = { kind: 'prose' | 'tool-input' | 'tool-output'; text: string };

let cached: FixtureText[] | undefined;

/**
 * Every piece of text in the recorded sessions, in a fixed order (files by name,
 * records by line): user and assistant prose (`text`, `thinking`), tool inputs
 * (as JSON) and tool outputs. Empty pieces are left out. Read once per process.
 */
export function fixtureTexts(): FixtureText[] {
  if (cached) return cached;
  const texts: FixtureText[] = [];
  const files = readdirSync(FIXTURES_DIR)
    .filter((name) => name.endsWith('.jsonl'))
    .sort();
  for (const file of files) {
    for (const line of readFileSync(`${FIXTURES_DIR}${file}`, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const record = JSON.parse(line) as { message?: { content?: unknown } };
      collect(record.message?.content, texts);
    }
  }
  cached = texts.filter((piece) => piece.text.trim().length > 0);
  return cached;
}

function collect(content: unknown, texts: FixtureText[]): void {
  if (typeof content === 'string') {
    texts.push({ kind: 'prose', text: content });
    return;
  }
  if (!Array.isArray(content)) return;
  for (const block of content as Record<string, unknown>[]) {
    if (block.type === 'text' && typeof block.text === 'string') texts.push({ kind: 'prose', text: block.text });
    else if (block.type === 'thinking' && typeof block.thinking === 'string')
      texts.push({ kind: 'prose', text: block.thinking });
    else if (block.type === 'tool_use') texts.push({ kind: 'tool-input', text: JSON.stringify(block.input ?? {}) });
    else if (block.type === 'tool_result') texts.push({ kind: 'tool-output', text: outputText(block.content) });
  }
}

function outputText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Record<string, unknown>[])
    .map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : ''))
    .join('\n');
}
