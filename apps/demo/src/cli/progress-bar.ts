import type { CliOutput } from './cli-io.js';

/** A progress bar on one terminal line. See {@link createProgressBar}. */
export type ProgressBar = { update(done: number, total: number): void; finish(): void };

const WIDTH = 30;

/**
 * A progress bar drawn on `stream` (stderr) only when it is a terminal; a no-op
 * otherwise, so piped and captured output stays clean.
 */
export function createProgressBar(stream: CliOutput, label: string): ProgressBar {
  if (!stream.isTTY) return { update() {}, finish() {} };
  let drawn = false;
  let lastFilled = -1;
  return {
    update(done, total) {
      const filled = total > 0 ? Math.round((done / total) * WIDTH) : WIDTH;
      if (filled === lastFilled && done !== total) return;
      lastFilled = filled;
      drawn = true;
      stream.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${done}/${total}`);
    },
    finish() {
      if (drawn) stream.write('\r\u001b[2K');
    },
  };
}
