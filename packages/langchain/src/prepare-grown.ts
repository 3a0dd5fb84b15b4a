import type { CompactionSession, HistorySource, Message, PreparedContext } from '@compaction/core';
import type { BaseMessage } from '@langchain/core/messages';
import { conversionSource } from './conversion-source.js';
import type { Conversion } from './extend-conversion.js';
import { releaseConversion } from './held-conversion.js';

/**
 * `prepare` over a conversion's core messages, given to the session as a source
 * ({@link conversionSource}). With `previous` — the source of the call before, whose
 * messages are the first `previous.length` of the conversion (the caller checked it: the
 * conversion grew in place, or took over restored objects of the same messages) — the
 * session compares nothing again and reads only the new messages. When it answers that
 * the context is the history as it is (`asIs`: it holds the history counted, not loaded),
 * the conversion lets go of its core messages ({@link releaseConversion}). Returns the
 * prepared context and the source, for the next call's `previous`.
 */
export async function prepareGrown(
  session: CompactionSession,
  conversion: Conversion<BaseMessage, Message>,
  previous: HistorySource | undefined,
  signal?: AbortSignal,
): Promise<{ prepared: PreparedContext; source: HistorySource }> {
  const source = conversionSource(conversion, previous ? { source: previous, unchanged: previous.length } : undefined);
  const prepared = await session.prepare({ history: source, ...(signal ? { signal } : {}) });
  if (prepared.asIs) releaseConversion(conversion);
  return { prepared, source };
}
