import { getContextWindow, isKnownModel } from '@compaction/core';

/**
 * The window of `modelId` when it is certain now — built in or registered with
 * `registerContextWindows` — else undefined: an unknown id's window may still be registered
 * before the first call, where the sessions read it (checking against the 128K guess now would
 * refuse settings that will hold). The wrap and `compactionChat` check against it.
 */
export function certainWindow(modelId: string): number | undefined {
  return isKnownModel(modelId) ? getContextWindow(modelId) : undefined;
}
