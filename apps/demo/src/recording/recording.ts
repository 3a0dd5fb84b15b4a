import type { ImportWarning, RecordedCall, RecordedCompaction, SessionFormat } from '@compaction/claude-code-import';
import type { Message } from '@compaction/core';

/** A session file read for a replay. */
export type Recording = {
  /** The path it was read from. */
  file: string;
  format: SessionFormat;
  /** The session's name or id, when the file has one. */
  name?: string;
  /** The model of the first recorded call, when known (for the context window). */
  model?: string;
  /** Every imported message, in order. */
  messages: Message[];
  /** The recorded model calls that carry usage, one per assistant message that has it. */
  calls: RecordedCall[];
  /** The recording harness's own compactions (Claude Code's `compact_boundary`). */
  compactions: RecordedCompaction[];
  /** Calls the harness made to summarize (Claude Code's compaction agent), for the cost. */
  summarizationCalls: RecordedCall[];
  /** Lines skipped or partly imported, with their line numbers. */
  warnings: ImportWarning[];
};
