/** Messages converted one way or the other: what went in (a copy) and what came out. */
export type Conversion<From, To> = {
  readonly source: readonly From[];
  readonly result: readonly To[];
};

/**
 * Converts `source` with `convertAll`, or, when `source` starts with the very
 * objects `previous` converted (a history that grew), reuses that result and
 * converts only the rest with `convertRest(start)`; `convertRest` returns
 * undefined when the rest cannot be converted apart from what comes before.
 * A call then costs one pass of identity checks, not a conversion of every message.
 */
export function extendConversion<From, To>(
  previous: Conversion<From, To> | undefined,
  source: readonly From[],
  convertAll: (source: readonly From[]) => To[],
  convertRest: (source: readonly From[], start: number) => To[] | undefined,
): Conversion<From, To> {
  if (previous && startsWith(source, previous.source)) {
    const rest = convertRest(source, previous.source.length);
    if (rest)
      return { source: source.slice(), result: rest.length === 0 ? previous.result : previous.result.concat(rest) };
  }
  return { source: source.slice(), result: convertAll(source) };
}

function startsWith<T>(values: readonly T[], prefix: readonly T[]): boolean {
  if (values.length < prefix.length) return false;
  for (let index = 0; index < prefix.length; index += 1) if (values[index] !== prefix[index]) return false;
  return true;
}
