import type { Message } from '@compaction/core';
import type { MastraDBMessage, MastraMessageContentV2, MastraMessagePart } from '@mastra/core/agent/message-list';

/** The key under `Message.metadata` that holds where a core message came from in Mastra. */
export const MASTRA_ORIGIN_KEY = 'mastra';

/** A Mastra message without its parts: everything needed to rebuild it around a set of parts. */
export type MastraEnvelope = Omit<MastraDBMessage, 'content'> & {
  content: Omit<MastraMessageContentV2, 'parts'>;
};

/**
 * What a core message keeps of the Mastra message it was converted from
 * (under `metadata.mastra`). One Mastra assistant message becomes several core
 * messages (one per step, plus a `tool` message with that step's results);
 * each of them holds the same envelope and the Mastra parts it stands for, so
 * any subset of them rebuilds the parts it covers exactly.
 */
export type MastraOrigin = {
  /** The Mastra message without its parts (shared by every core message made from it). */
  envelope: MastraEnvelope;
  /** How many parts the Mastra message had: a rebuild with all of them is the whole message. */
  partCount: number;
  /** The step of the Mastra message (0 for the first; parts are split at `step-start`). */
  step: number;
  /** The Mastra parts this core message stands for, verbatim, with their index in the Mastra message. */
  parts: { index: number; part: MastraMessagePart }[];
  /** For each core part, the index of the Mastra part it was made from. */
  sources: number[];
};

/** Where a core message came from in Mastra, or undefined for a message core made (a summary). */
export function mastraOrigin(message: Message): MastraOrigin | undefined {
  const origin = message.metadata?.[MASTRA_ORIGIN_KEY] as MastraOrigin | undefined;
  return origin && typeof origin === 'object' && 'envelope' in origin ? origin : undefined;
}
