import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The header every result written by `startResult` has (`economy`/`retention` have their own, without it). */
export type ResultHeader = {
  name: string;
  command?: string;
  tiny?: boolean;
  finishedAt?: string;
  environment?: {
    cpu: string;
    cores: number;
    memoryGiB: number;
    os: string;
    node: string;
    loadAverage: number[];
  };
  versions?: Record<string, string>;
};

/** Reads `<dir>/<name>.json`, or undefined when that benchmark did not run. */
export function readResult<T>(dir: string, name: string): (T & ResultHeader) | undefined {
  const path = join(dir, `${name}.json`);
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as T & ResultHeader;
}

/** The line every section ends with: how to measure it again, and when this was measured. */
export function rerun(command: string, result: ResultHeader | undefined): string {
  const when = result?.finishedAt ? `, measured ${result.finishedAt.slice(0, 16).replace('T', ' ')} UTC` : '';
  return `_Re-run: \`${command}\`${when}._`;
}

/** What a section says when its benchmark produced no result this time. */
export const NOT_MEASURED = '_Not measured in this run._';
