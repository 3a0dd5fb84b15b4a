import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { CliError } from './cli-error.js';

/**
 * Parses a command's flags strictly: an unknown flag or a missing value is a `CliError`
 * with one line that names it.
 */
export function parseCommandArgs<T extends ParseArgsOptionsConfig>(
  command: string,
  args: readonly string[],
  options: T,
): ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>> {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (!code.startsWith('ERR_PARSE_ARGS')) throw error;
    const firstSentence = (error as Error).message.split(/\.\s/)[0]!.replace(/\.$/, '');
    throw new CliError(`${command}: ${firstSentence}; run "compaction-demo help" for the flags`);
  }
}
