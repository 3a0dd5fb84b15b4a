import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { detectSessionFormat, parseClaudeCodeSession, parseSessionJson } from '@compaction/claude-code-import';
import { CliError } from '../cli/cli-error.js';
import type { Recording } from './recording.js';
import { sessionJsonCalls } from './session-json-calls.js';

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CliError(`file not found: ${file}`);
    if (code === 'EISDIR') throw new CliError(`${file} is a directory; give a session file (.jsonl or .json)`);
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** Claude Code writes its summarization request beside the session as `<id>.compaction-agent.jsonl`. */
async function readSummarizationCalls(file: string): Promise<Recording['summarizationCalls']> {
  const sibling = file.replace(/\.jsonl$/, '.compaction-agent.jsonl');
  if (sibling === file || !existsSync(sibling)) return [];
  return parseClaudeCodeSession(await readText(sibling), { includeSidechain: true }).calls;
}

/**
 * Reads a recorded session: a Claude Code JSONL transcript or the project's own
 * `compaction-session` JSON file, told apart by their content.
 *
 * @throws CliError when the file is missing or in neither format.
 */
export async function readRecording(file: string): Promise<Recording> {
  const text = await readText(file);
  const format = detectSessionFormat(text);
  if (format === 'claude-code') {
    const session = parseClaudeCodeSession(text);
    return {
      file,
      format,
      ...(session.name === undefined ? {} : { name: session.name }),
      ...(session.calls[0]?.model === undefined ? {} : { model: session.calls[0].model }),
      messages: session.messages,
      calls: session.calls,
      compactions: session.compactions,
      summarizationCalls: await readSummarizationCalls(file),
      warnings: session.warnings,
    };
  }
  if (format === 'compaction-json') {
    const { messages } = parseSessionJson(text);
    return {
      file,
      format,
      messages,
      calls: sessionJsonCalls(messages),
      compactions: [],
      summarizationCalls: [],
      warnings: [],
    };
  }
  throw new CliError(
    `unknown session format: ${file} is neither a Claude Code JSONL transcript nor a "compaction-session" JSON file`,
  );
}
