import { condenseFileOperations, type FileListing } from './file-operations/condense-file-operations.js';
import { renderFileOperations } from './file-operations/render-file-operations.js';
import { appendLastRequest } from './framing/split-last-request.js';
import type { FileOperations, SummarizeRequest, SummaryDraft, SummaryPart } from './types.js';

/** The heading a split turn's prefix summary is rendered under, after the history summary. */
export const TURN_PREFIX_HEADING = '## Current turn so far';

/** What {@link renderSummary} renders: the state's summary fields. */
export type SummaryFields = {
  /** The summary's parts, in order (see {@link SummaryPart}). */
  parts: readonly SummaryPart[];
  /** Every file read and modified: listed under each non-verbatim `history` part. */
  fileOps: FileOperations;
  /** Carried verbatim after everything else. */
  lastRequest?: string | undefined;
};

/**
 * The text of a summary, rendered from its structured fields: each `history` part's text with
 * the `<read-files>` / `<modified-files>` blocks of `fileOps` (listed as the part asks), each
 * `turn-prefix` part under {@link TURN_PREFIX_HEADING}, then `Last request from user was: …`.
 * A `verbatim` part is written as it is. The same fields always give the same text, so the
 * engine renders it once, when it stores the state.
 *
 * @example
 * ```ts
 * renderSummary({
 *   parts: [{ kind: 'history', strategy: 'llm', text: '## Goal\nShip it' }],
 *   fileOps: { read: [], modified: ['src/a.ts'] },
 *   lastRequest: 'ship it',
 * });
 * // '## Goal\nShip it\n\n<read-files>\n</read-files>\n<modified-files>\nsrc/a.ts\n</modified-files>\n\nLast request from user was: ship it'
 * ```
 */
export function renderSummary(fields: SummaryFields): string {
  const pieces: string[] = [];
  for (const part of fields.parts) {
    if (part.kind === 'turn-prefix') {
      const text = part.text.trim();
      if (text) pieces.push(`${TURN_PREFIX_HEADING}\n\n${text}`);
    } else if (part.verbatim) {
      if (part.text.trim()) pieces.push(part.text.trimEnd());
    } else {
      pieces.push(historyText(part.text, fileListText(fields.fileOps, part.fileListing ?? 'full')));
    }
  }
  return appendLastRequest(pieces.join('\n\n'), fields.lastRequest);
}

/** The file blocks of `fileOps` as `listing` asks (see `condenseFileOperations`). */
export function fileListText(fileOps: FileOperations, listing: FileListing): string {
  return renderFileOperations(condenseFileOperations(fileOps, listing));
}

/**
 * A `history` part's text followed by its file blocks: the one composition {@link renderSummary}
 * and the structured summarizer's budget fitting both use, so what one measures the other renders.
 */
export function historyText(text: string, files: string): string {
  const body = text.trimEnd();
  if (!files) return body;
  return body ? `${body}\n\n${files}` : files;
}

/**
 * The text a summarizer's `summarize` returns for its draft: a `history` draft rendered as the
 * state would render it alone (with the file blocks of `fileOps` and the last request), a
 * `turn-prefix` draft as written (the history summary carries the files and the request). A
 * blank draft stays blank.
 */
export function renderDraft(kind: SummarizeRequest['kind'], draft: SummaryDraft, fileOps: FileOperations): string {
  if (kind === 'turn-prefix' || !draft.text.trim()) return draft.text;
  const { lastRequest, ...part } = draft;
  return renderSummary({ parts: [{ ...part, kind, strategy: '' }], fileOps, lastRequest });
}
