import type { Message } from '../messages/types.js';

/** The first line of a snapshot file. */
const MAGIC = 'compaction-history-snapshot 1\n';

/**
 * Raised whenever decoding a history line may give another message than the
 * releases before did (the codec, validation): a snapshot made by another
 * decoder is then not used.
 */
const DECODER = 1;

/** The start of a history file, already decoded, as {@link decodeHistorySnapshot} returns it. */
export type HistorySnapshot = {
  /** How many bytes of the history file it stands for (ending with a commit line). */
  bytes: number;
  /** How many lines those bytes hold (the format line, messages, commit lines). */
  lines: number;
  /** The messages of those lines, decoded. */
  messages: Message[];
};

type Header = {
  decoder: number;
  bytes: number;
  lines: number;
  count: number;
  /** CRC-32 of the history bytes it stands for. */
  history: number;
  /** Byte length and CRC-32 of the serialized messages that follow the header. */
  size: number;
  payload: number;
};

// node:v8 and node:zlib are loaded on first use, not when core is imported.
const v8 = () => process.getBuiltinModule('node:v8');
const crc32 = (data: Uint8Array) => process.getBuiltinModule('node:zlib').crc32(data);

/**
 * A snapshot of the start of a history file: its messages in V8's
 * serialization format (which decodes about three times faster than their
 * JSON), under a header naming the history bytes they stand for by length and
 * CRC-32, and the serialized bytes by length and CRC-32; the header carries
 * its own CRC-32.
 *
 * @param history - The history file's bytes, from its start: the first
 *   `bytes` of them are what `messages` were decoded from.
 */
export function encodeHistorySnapshot(history: Uint8Array, bytes: number, lines: number, messages: Message[]): Buffer {
  const payload = v8().serialize(messages);
  const header: Header = {
    decoder: DECODER,
    bytes,
    lines,
    count: messages.length,
    history: crc32(history.subarray(0, bytes)),
    size: payload.length,
    payload: crc32(payload),
  };
  const text = JSON.stringify(header);
  return Buffer.concat([Buffer.from(`${MAGIC}${crc32(Buffer.from(text, 'utf8'))} ${text}\n`, 'utf8'), payload]);
}

/**
 * The decoded start of `history`, when `snapshot` stands for it: made by this
 * decoder, over bytes that are still the start of `history` (same length,
 * same CRC-32), with its serialized messages whole (same length, same CRC-32).
 * Anything else (another release's or Node's snapshot, a history cleared and
 * written again, a torn or foreign file) gives `undefined`: the caller decodes
 * the JSON, so a snapshot never changes what a load returns.
 */
export function decodeHistorySnapshot(snapshot: Uint8Array, history: Uint8Array): HistorySnapshot | undefined {
  const data = Buffer.from(snapshot.buffer, snapshot.byteOffset, snapshot.byteLength);
  if (data.toString('utf8', 0, MAGIC.length) !== MAGIC) return undefined;
  const headerEnd = data.indexOf(0x0a, MAGIC.length);
  if (headerEnd === -1) return undefined;
  // The header line is `<CRC-32 of the JSON> <JSON>`.
  const space = data.indexOf(0x20, MAGIC.length);
  if (space === -1 || space > headerEnd) return undefined;
  const text = data.subarray(space + 1, headerEnd);
  if (data.toString('utf8', MAGIC.length, space) !== String(crc32(text))) return undefined;
  let header: Header;
  try {
    header = JSON.parse(text.toString('utf8')) as Header;
  } catch {
    return undefined;
  }
  const { decoder, bytes, lines, count, size } = header ?? {};
  if (decoder !== DECODER || !Number.isSafeInteger(bytes) || bytes > history.length) return undefined;
  if (!Number.isSafeInteger(lines) || !Number.isSafeInteger(count)) return undefined;
  const payload = data.subarray(headerEnd + 1);
  if (payload.length !== size || crc32(payload) !== header.payload) return undefined;
  if (crc32(history.subarray(0, bytes)) !== header.history) return undefined;
  let messages: unknown;
  try {
    messages = v8().deserialize(payload);
  } catch {
    return undefined; // written by a Node whose format this one does not read
  }
  if (!Array.isArray(messages) || messages.length !== count) return undefined;
  return { bytes, lines, messages: messages as Message[] };
}
