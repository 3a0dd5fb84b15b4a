import { CompactionError } from '@compaction/core';
import { CliError } from './cli/cli-error.js';
import { type CliIo, processIo } from './cli/cli-io.js';
import { USAGE } from './cli/usage.js';
import { chatCommand } from './commands/chat-command.js';
import { demoCommand } from './commands/demo-command.js';
import { replayCommand } from './commands/replay-command.js';

/** The message of an error as one line. */
function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!;
}

/**
 * The CLI: `demo`, `replay <file>`, `chat`, `help`. Returns the exit code. Every error a
 * user can cause is one `error: …` line on stderr (set `COMPACTION_DEMO_DEBUG=1` for the
 * stack), never an uncaught exception.
 *
 * @example
 * ```ts
 * process.exitCode = await main(process.argv.slice(2));
 * ```
 */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'demo':
        await demoCommand(args, io);
        return 0;
      case 'replay':
        await replayCommand(args, io);
        return 0;
      case 'chat':
        await chatCommand(args, io);
        return 0;
      case 'help':
      case '--help':
      case '-h':
        io.stdout.write(USAGE);
        return 0;
      case undefined:
        io.stderr.write(USAGE);
        return 1;
      default:
        throw new CliError(`unknown command "${command}"; the commands are demo, replay, chat and help`);
    }
  } catch (error) {
    io.stderr.write(`error: ${CompactionError.isInstance(error) ? '' : 'unexpected: '}${oneLine(error)}\n`);
    if (io.env.COMPACTION_DEMO_DEBUG && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return 1;
  }
}
