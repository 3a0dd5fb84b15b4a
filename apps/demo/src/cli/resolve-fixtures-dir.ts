import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_FIXTURES_DIR } from './app-paths.js';
import { CliError } from './cli-error.js';

/**
 * The folder of Claude Code fixtures: `--fixtures` when given, else
 * `<repo>/fixtures/claude-code/`.
 *
 * @throws CliError when the folder does not exist.
 */
export function resolveFixturesDir(flag?: string): string {
  const dir = resolve(flag ?? DEFAULT_FIXTURES_DIR);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new CliError(
      `fixtures folder not found: ${dir}; pass --fixtures <dir> with the Claude Code transcripts (fixtures/claude-code)`,
    );
  }
  return dir;
}
