import { InvalidStateError } from '../errors/invalid-state-error.js';

/**
 * The history format this release writes and reads: `2`, files that open with
 * {@link HISTORY_FORMAT_LINE} and end each append with a commit line. Files
 * with no format line (written before it) are format 1 and are read too.
 */
export const HISTORY_FORMAT = 2;

/**
 * The first line of a history file written with commit markers. Each append ends with a
 * commit line (`{"$commit":n}`); lines after the last one are an append a crash cut short
 * (a kill can stop a large write between pages, leaving whole lines of half a batch), so
 * they are not part of the history. Files without this first line (written before it)
 * are read line by line, as they were written.
 */
export const HISTORY_FORMAT_LINE = '{"$history":2}';

/** A commit line: `{"$commit":n}`, where n is the number of messages of the append it ends. */
export const COMMIT_LINE = /^\{"\$commit":\d+\}$/;

/** The commit line that ends an append of `count` messages. */
export const commitLine = (count: number): string => `{"$commit":${count}}`;

/** A format line of any release: `{"$history":n}`. */
const ANY_FORMAT_LINE = /^\{"\$history":(\d+)\}$/;

/**
 * The format of a file whose first line is `line`, as written there (digits:
 * a number too large for a double is named as it is), when it is a format line
 * of a newer release than this one (`{"$history":n}` with n above
 * {@link HISTORY_FORMAT}); undefined for anything else (this release's format
 * line, a message, no format line at all).
 */
export function newerHistoryFormat(line: string): string | undefined {
  const match = ANY_FORMAT_LINE.exec(line);
  if (match === null) return undefined;
  const format = match[1] as string;
  return Number(format) > HISTORY_FORMAT ? format : undefined;
}

/**
 * The error for a history file a newer release wrote (see
 * {@link newerHistoryFormat}): this release neither reads nor appends to it,
 * and says to upgrade rather than to repair the file.
 *
 * @param file - The history file, named in the error.
 * @param format - The format its first line names, as written there.
 */
export function newerHistoryFormatError(file: string, format: string): InvalidStateError {
  return new InvalidStateError({
    source: file,
    problem:
      `the history is in format ${format}, written by a newer release of @compaction/core; ` +
      `this release reads formats up to ${HISTORY_FORMAT}. Upgrade @compaction/core (and its adapters) to read or ` +
      'append to it; the file was left unchanged, do not edit it',
  });
}
