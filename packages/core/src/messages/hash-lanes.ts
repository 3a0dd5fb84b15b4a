/**
 * The 64-bit non-cryptographic hash under content ids (cyrb53-style: two
 * 32-bit lanes, fed one UTF-16 code unit at a time). Every adapter runs it over
 * the messages it has not converted before, so it is written for speed: the
 * lanes live in one small object per hash, loops keep them in locals, and the
 * digest is built from char codes. Its output is persisted (ids in usage
 * records and compaction state): changing a step here changes every stored id.
 */

/** The hash's two 32-bit lanes at the start (cyrb53's seeds; `0xdeadbeef | 0` is the same lane as an int32). */
const LANE_1_START = 0xdeadbeef | 0;
const LANE_2_START = 0x41c6ce57;

/**
 * The running state of one hash: two 32-bit lanes. One object per hash (not
 * module state), so a getter that hashes while a hash is running cannot mix
 * the two. Loops load the lanes into locals and store them back once.
 */
export type HashLanes = { h1: number; h2: number };

/** Fresh lanes for one hash. */
export function startLanes(): HashLanes {
  return { h1: LANE_1_START, h2: LANE_2_START };
}

/** Feeds one code unit (cyrb53's step). */
export function addCode(lanes: HashLanes, code: number): void {
  lanes.h1 = Math.imul(lanes.h1 ^ code, 2654435761);
  lanes.h2 = Math.imul(lanes.h2 ^ code, 1597334677);
}

/** Feeds the code units of `text` from `from` to its end, then `trailer` when given (≥ 0). */
export function addChars(lanes: HashLanes, text: string, from: number, trailer: number): void {
  let h1 = lanes.h1;
  let h2 = lanes.h2;
  for (let index = from; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  if (trailer >= 0) {
    h1 = Math.imul(h1 ^ trailer, 2654435761);
    h2 = Math.imul(h2 ^ trailer, 1597334677);
  }
  lanes.h1 = h1;
  lanes.h2 = h2;
}

/** The 16 hex digits of the lanes (cyrb53's finalizer; lane b first). */
export function digest(lanes: HashLanes): string {
  const h1 = lanes.h1;
  const h2 = lanes.h2;
  let a = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  a ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  let b = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  b ^= Math.imul(a ^ (a >>> 13), 3266489909);
  return String.fromCharCode(
    hexDigit(b >>> 28),
    hexDigit((b >>> 24) & 15),
    hexDigit((b >>> 20) & 15),
    hexDigit((b >>> 16) & 15),
    hexDigit((b >>> 12) & 15),
    hexDigit((b >>> 8) & 15),
    hexDigit((b >>> 4) & 15),
    hexDigit(b & 15),
    hexDigit(a >>> 28),
    hexDigit((a >>> 24) & 15),
    hexDigit((a >>> 20) & 15),
    hexDigit((a >>> 16) & 15),
    hexDigit((a >>> 12) & 15),
    hexDigit((a >>> 8) & 15),
    hexDigit((a >>> 4) & 15),
    hexDigit(a & 15),
  );
}

/** The char code of a lowercase hex digit (0–15), as `toString(16)` writes it. */
function hexDigit(nibble: number): number {
  return nibble < 10 ? 0x30 + nibble : 0x57 + nibble;
}

/**
 * A fast 64-bit non-cryptographic hash (cyrb53-style, two 32-bit lanes) of a
 * string, as 16 hex digits. Not for security: for recognizing content.
 */
export function hashString(text: string, seed = ''): string {
  const lanes = startLanes();
  if (seed) addChars(lanes, seed, 0, 0x0a);
  addChars(lanes, text, 0, -1);
  return digest(lanes);
}
