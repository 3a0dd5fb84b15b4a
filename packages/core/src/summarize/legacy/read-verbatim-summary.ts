import { parseFileOperations } from '../file-operations/parse-file-operations.js';
import { removeFileOperationBlocks } from '../file-operations/remove-file-operation-blocks.js';
import { splitLastRequest } from '../framing/split-last-request.js';
import type { FileOperations } from '../types.js';

/** A summary that exists only as text, read into the fields a state keeps apart. */
export type VerbatimSummary = {
  /** The text without its file blocks and its last-request line. */
  body: string;
  /** The `Last request from user was: …` tail, when it has one. */
  lastRequest?: string;
  /** Its `<read-files>` / `<modified-files>` blocks. */
  fileOps: FileOperations;
};

/**
 * The legacy reader: splits a summary that exists only as text — a state of schema 1, a custom
 * summarizer's answer, a `previousSummary` given without `previous` — into its body, file lists
 * and last request. Summaries the engine makes keep these as fields and are never read back:
 * this runs only on a `verbatim` part, when a summarizer builds on it.
 *
 * @example
 * ```ts
 * readVerbatimSummary('## Goal\nx\n\n<read-files>\na.ts\n</read-files>\n\nLast request from user was: go');
 * // { body: '## Goal\nx', lastRequest: 'go', fileOps: { read: ['a.ts'], modified: [] } }
 * ```
 */
export function readVerbatimSummary(text: string): VerbatimSummary {
  const { body, lastRequest } = splitLastRequest(text);
  return {
    body: removeFileOperationBlocks(body).trim(),
    ...(lastRequest !== undefined ? { lastRequest } : {}),
    fileOps: parseFileOperations(text),
  };
}
