import { readdirSync, readFileSync } from 'node:fs';

/**
 * The recorded Claude Code sessions carried by the repository (`<repo>/fixtures/claude-code/`,
 * MIT, see the LICENSE there).
 */
export const claudeCodeFixturesDir = new URL('../../../fixtures/claude-code/', import.meta.url);

/** The text of one recorded session, e.g. `claudeCodeFixture('short.jsonl')`. */
export function claudeCodeFixture(name: string): string {
  return readFileSync(new URL(name, claudeCodeFixturesDir), 'utf8');
}

/** File names of every recorded session (`*.jsonl`), sorted. */
export function claudeCodeFixtureNames(): string[] {
  return readdirSync(claudeCodeFixturesDir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort();
}
