const marker = Symbol.for('compaction.error');

/**
 * Base class of every error `@compaction/*` throws. `isInstance` checks a
 * `Symbol.for` marker, so it works across duplicated copies of the package.
 */
export class CompactionError extends Error {
  readonly [marker] = true;

  constructor(name: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = name;
  }

  static isInstance(error: unknown): error is CompactionError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}

/** Builds the `isInstance` of a subclass from its own marker. */
export function hasMarker(error: unknown, symbol: symbol): boolean {
  return typeof error === 'object' && error !== null && symbol in error;
}
