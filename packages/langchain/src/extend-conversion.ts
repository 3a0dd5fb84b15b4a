/**
 * Messages converted one way or the other: what went in and what came out. Owned
 * by one call at a time (a kept thread is taken out of its cache while a call
 * uses it): {@link extendConversion} grows it in place.
 */
export type Conversion<From, To> = {
  source: From[];
  /** What `source` converts to, from message {@link Conversion.released} on (one a message). */
  result: To[];
  /**
   * How many first messages of `source` have their conversion let go (`releaseConversion`):
   * `result[i]` is then the conversion of `source[released + i]`, and the first ones are
   * converted again, from `source` as it is, only when asked for (`loadConversion`).
   * @default 0
   */
  released?: number;
  /**
   * The ids of the first `ids.length` messages of `source` (`message.id` when it is a
   * non-empty string, else undefined: a message without an id of its own), kept by
   * `releaseConversion` so that a restored thread is matched by id without reading the
   * objects it replaces.
   * @default undefined
   */
  ids?: (string | undefined)[];
  /** The class of each of those messages, as a code of `messageClassCode` (one byte a message). */
  classes?: Uint8Array;
  /**
   * Whether the last extension took over other objects of the same value
   * ({@link AdoptPrefix}): what was made from the objects it replaced is to be made again.
   */
  restored?: boolean;
};

/**
 * Whether the first `previous.source.length` messages of `source`, other objects
 * (a thread restored from a checkpointer), can stand for those `previous` converted:
 * then `previous` is extended as if they were the same objects.
 */
export type AdoptPrefix<From, To> = (previous: Conversion<From, To>, source: readonly From[]) => boolean;

/**
 * Converts `source` with `convertAll`, or, when `source` starts with the very
 * objects `previous` converted (a history that grew), extends `previous` in place
 * with the rest, converted by `convertRest(start)`, and returns it; `convertRest`
 * returns undefined when the rest cannot be converted apart from what comes before.
 * With `adopt`, a prefix of other objects of the same value is taken over too.
 * A call then costs one pass of identity checks and the new messages, not a
 * conversion (nor a copy) of every message.
 */
export function extendConversion<From, To>(
  previous: Conversion<From, To> | undefined,
  source: readonly From[],
  convertAll: (source: readonly From[]) => To[],
  convertRest: (source: readonly From[], start: number) => To[] | undefined,
  adopt?: AdoptPrefix<From, To>,
): Conversion<From, To> {
  if (previous) {
    const same = startsWith(source, previous.source);
    if (same || adopt?.(previous, source)) {
      const start = previous.source.length;
      const rest = convertRest(source, start);
      previous.restored = !same;
      if (rest) {
        if (!same) previous.source = source.slice(0, start); // the restored objects stand for the converted ones
        for (let index = start; index < source.length; index += 1) previous.source.push(source[index]!);
        for (const converted of rest) previous.result.push(converted);
        return previous;
      }
    }
  }
  return { source: source.slice(), result: convertAll(source) };
}

/** Whether `values` starts with the very objects of `prefix`. */
export function startsWith<T>(values: readonly T[], prefix: readonly T[]): boolean {
  if (values.length < prefix.length) return false;
  for (let index = 0; index < prefix.length; index += 1) if (values[index] !== prefix[index]) return false;
  return true;
}
