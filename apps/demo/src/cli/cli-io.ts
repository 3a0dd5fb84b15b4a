/** Where the CLI writes: a stream with `write`, and whether it is a terminal. */
export type CliOutput = { write(text: string): unknown; isTTY?: boolean; columns?: number };

/** Everything the CLI touches outside itself, injectable for tests. */
export type CliIo = {
  stdout: CliOutput;
  stderr: CliOutput;
  /** Read line by line by `chat`; a pipe works as well as a terminal. */
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Readonly<Record<string, string | undefined>>;
  /** Used by `chat` to reach an OpenAI-compatible endpoint. */
  fetch: typeof fetch;
};

/** The real process's streams, environment and `fetch`. */
export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    fetch: globalThis.fetch,
  };
}
