/** A command line a tool call ran, and the agent's description of it. */
export type CommandInput = { command: string; description?: string };

/** How a command run ended, read from its tool result. */
export type CommandOutcome = { ok: boolean; exitCode?: number; failing: string[]; output?: string };

/** A word that makes a command a build, test, lint or type check when it is among the command's first words. */
const CHECK_WORD =
  /^(?:test|tests|spec|build|check|lint|typecheck|type-check|tsc|compile|vitest|jest|mocha|pytest|tox|rspec|eslint|biome|ruff|mypy|pyright|clippy|phpunit|ctest|credo|dialyzer|make|gradle|mvn|bazel)$/;
const SEGMENT = /\s*(?:&&|\|\||;|\|)\s*/;
const EXIT_CODE = /^\s*(?:Exit code|exit code|Exit status|exited with code)[: ]\s*(\d+)/;
/** Lines that say what failed, in the output formats of common test runners and compilers. */
const FAILING: readonly RegExp[] = [
  /^\s*\d+\) test (.+?)\s*\(([\w.]+)\)/, // ExUnit: `1) test renders x (MyApp.LiveTest)`
  /^\s*(?:FAIL|✗|×|✕)\s+(\S.*?)\s*$/, // vitest, jest, node:test
  /^--- FAIL: (\S+)/, // go test
  /^FAILED (\S+)/, // pytest
  /^test (\S+) \.\.\. FAILED/, // cargo test
  /^\s*(?:error|Error)(?:\[\w+\])?: (.+)$/, // rustc, tsc, generic
  /^(.+?)\(\d+,\d+\): error (TS\d+:.*)$/, // tsc --pretty false
  /^\*\* \((\w+(?:\.\w+)*Error)\) (.*)$/, // Elixir compile errors
];
const SALIENT =
  /\b(?:error|errors|failed|failure|failures|fail|exception|panic|fatal|traceback|undefined|cannot|not found|denied)\b/i;
const MAX_FAILING = 8;
const MAX_LINE = 300;

/** The command of a tool input that runs one (`command` as a string or argv array, `cmd`, `script`). */
export function commandOf(input: unknown): CommandInput | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const record = input as Record<string, unknown>;
  for (const key of ['command', 'cmd', 'script']) {
    const value = record[key];
    const command = Array.isArray(value) ? argvCommand(value.filter((item) => typeof item === 'string')) : value;
    if (typeof command === 'string' && command.trim()) {
      const description = typeof record.description === 'string' ? record.description.trim() : '';
      return { command: plainCommand(command), ...(description ? { description } : {}) };
    }
  }
  return undefined;
}

/** An argv command as one line; a shell wrapper (`["bash", "-lc", "npm test"]`) is unwrapped. */
function argvCommand(argv: string[]): string {
  const [shell, flag, ...rest] = argv;
  if (shell && /^(?:\/\S*\/)?(?:ba|z|da)?sh$/.test(shell) && flag && /^-\w*c$/.test(flag) && rest.length > 0) {
    return rest.join(' ');
  }
  return argv.join(' ');
}

/**
 * A command without what only shapes its output: `2>&1`, `> /dev/null`, and a trailing
 * `| tail -5` / `| head -n 20`; whitespace runs become one space.
 *
 * @example
 * ```ts
 * plainCommand('mix test 2>&1 | tail -20'); // 'mix test'
 * ```
 */
export function plainCommand(command: string): string {
  const plain = command
    .replace(/\s+/g, ' ')
    .replace(/ \d?>&\d| \d?>\s?\/dev\/null/g, '')
    .replace(/(?: \| (?:tail|head)(?: -n)?(?: -?\d+)?)+\s*$/, '')
    .trim();
  return plain || command.trim();
}

/**
 * Whether a command builds, tests, lints or type-checks: one of the first three words of one of
 * its `&&` / `;` / `|` parts names a check (`mix test`, `npx vitest run`, `cargo clippy`, `make`);
 * a path that merely holds the word (`git add test/x.exs`) does not count.
 */
export function isCheckCommand(command: string): boolean {
  return command.split(SEGMENT).some((segment) =>
    segment
      .split(/\s+/)
      .filter((word) => word && !word.startsWith('-') && !/^\w+=/.test(word))
      .slice(0, 3)
      .some((word) => CHECK_WORD.test(word.replace(/^.*\//, '').replace(/:.*$/, ''))),
  );
}

/**
 * The outcome of a command from its result: failed when the result is an error or its output
 * starts with a non-zero `Exit code N`; for a failure, the failing test or check names the
 * output lists and the first line that says what went wrong.
 */
export function commandOutcome(output: string, isError: boolean): CommandOutcome {
  const exit = EXIT_CODE.exec(output);
  const exitCode = exit?.[1] !== undefined ? Number(exit[1]) : undefined;
  const ok = !isError && (exitCode === undefined || exitCode === 0);
  const outcome: CommandOutcome = { ok, failing: [], ...(exitCode !== undefined ? { exitCode } : {}) };
  if (ok) return outcome;
  const lines = output.split('\n');
  let firstFailing: string | undefined;
  for (const line of lines) {
    if (outcome.failing.length >= MAX_FAILING) break;
    for (const pattern of FAILING) {
      const match = pattern.exec(line);
      if (!match) continue;
      firstFailing ??= line;
      const name = match
        .slice(1)
        .filter(Boolean)
        .join(' ')
        .trim()
        .slice(0, MAX_LINE / 2);
      if (name && !outcome.failing.includes(name)) outcome.failing.push(name);
      break;
    }
  }
  // What failed: the first failing test or error line, else the first line that speaks of a failure.
  const salient =
    firstFailing ??
    lines.find((line) => SALIENT.test(line) && !EXIT_CODE.test(line)) ??
    lines.find((line) => line.trim() && !EXIT_CODE.test(line));
  if (salient?.trim()) outcome.output = salient.trim().slice(0, MAX_LINE);
  return outcome;
}

/** The first words of a command that name what it runs (`mix test test/x.exs` → `mix test`), for grouping failures. */
export function commandHead(command: string): string {
  const words = command.replace(/^(?:cd \S+ && |\w+=\S+ )+/, '').split(/\s+/);
  const head = words.slice(0, 2).filter((word) => !word.startsWith('-') && !word.includes('/'));
  return head.join(' ') || (words[0] ?? command);
}
