import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The recorded Claude Code sessions: `<repo>/fixtures/claude-code/`. */
export const FIXTURES_DIR = fileURLToPath(new URL('../../../fixtures/claude-code/', import.meta.url));

/** The fixtures `BENCH_TINY=1` runs on. */
export const TINY_SESSION_FILES: readonly string[] = ['short.jsonl', 'tool_heavy.jsonl'];

/** Whether `BENCH_TINY=1` asks for the short fixtures only. */
export function isTinyRun(): boolean {
  return process.env.BENCH_TINY === '1';
}

/**
 * The session transcripts to run on, as absolute paths sorted by name: every `*.jsonl`
 * fixture except Claude Code's `*.compaction-agent.jsonl` sidechains, or only
 * {@link TINY_SESSION_FILES} when {@link isTinyRun}.
 */
export function sessionFiles(): string[] {
  const names = isTinyRun()
    ? [...TINY_SESSION_FILES]
    : readdirSync(FIXTURES_DIR).filter((name) => name.endsWith('.jsonl') && !name.endsWith('.compaction-agent.jsonl'));
  return names.sort().map((name) => `${FIXTURES_DIR}${name}`);
}

/** A short label for a fixture: its name without `.jsonl`, a UUID cut to its first 8 characters. */
export function sessionLabel(file: string): string {
  const name = (file.split('/').pop() ?? file).replace(/\.jsonl$/, '');
  return /^[0-9a-f]{8}-[0-9a-f-]{27}$/.test(name) ? name.slice(0, 8) : name;
}
