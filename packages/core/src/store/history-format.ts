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
