import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { CliError } from '../cli/cli-error.js';
import { type ReportSection, renderReport } from './render-report.js';

/** Writes the HTML report to `file` (creating its folder) and returns its absolute path. */
export async function writeReport(file: string, title: string, sections: readonly ReportSection[]): Promise<string> {
  const path = resolve(file);
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, renderReport(title, sections));
  } catch (error) {
    throw new CliError(`cannot write the report to ${path}: ${(error as Error).message}`, { cause: error });
  }
  return path;
}
