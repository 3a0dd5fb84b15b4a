import type { CliOutput } from '../cli/cli-io.js';

/** A "working…" line while the model or the summarizer is busy. See {@link createActivityIndicator}. */
export type ActivityIndicator = {
  /** Shows `label` (replacing the one shown), with the seconds elapsed since the first `start`. */
  start(label: string): void;
  /** Clears the line. */
  stop(): void;
};

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * A spinner with a label and the seconds elapsed (`⠹ waiting for gpt-4o-mini… 2.4 s`),
 * redrawn on one line of `stream` every `intervalMs` while something is busy, and
 * cleared when it is done. Only on a terminal: piped and captured output stays clean.
 */
export function createActivityIndicator(
  stream: CliOutput,
  options: {
    /** How often the line is redrawn. @default 100 */
    intervalMs?: number;
    /** The clock, in milliseconds. @default Date.now */
    now?: () => number;
  } = {},
): ActivityIndicator {
  if (!stream.isTTY) return { start() {}, stop() {} };
  const now = options.now ?? Date.now;
  let timer: ReturnType<typeof setInterval> | undefined;
  let label = '';
  let startedAt = 0;
  let frame = 0;
  const draw = (): void => {
    const seconds = ((now() - startedAt) / 1000).toFixed(1);
    stream.write(`\r\u001b[2K${FRAMES[frame % FRAMES.length]} ${label}… ${seconds} s`);
    frame += 1;
  };
  return {
    start(next) {
      label = next;
      if (timer === undefined) {
        startedAt = now();
        frame = 0;
        timer = setInterval(draw, options.intervalMs ?? 100);
        timer.unref?.();
      }
      draw();
    },
    stop() {
      if (timer === undefined) return;
      clearInterval(timer);
      timer = undefined;
      stream.write('\r\u001b[2K');
    },
  };
}
