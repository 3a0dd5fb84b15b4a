import { Readable } from 'node:stream';
import { main } from '../src/main.js';

/** What a CLI run printed and returned. */
export type CliRun = { code: number; stdout: string; stderr: string };

/** Runs the CLI in-process with captured output, stdin from `input` (a pipe, not a TTY). */
export async function runCli(
  argv: string[],
  options: {
    input?: string;
    env?: Record<string, string | undefined>;
    fetch?: typeof fetch;
    /** Make stderr look like a terminal (spinners and progress bars draw). @default false */
    stderrIsTTY?: boolean;
  } = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text), isTTY: options.stderrIsTTY ?? false },
    stdin: Readable.from([options.input ?? '']),
    env: options.env ?? {},
    fetch: options.fetch ?? (() => Promise.reject(new Error('no network in tests'))),
  });
  return { code, stdout, stderr };
}
