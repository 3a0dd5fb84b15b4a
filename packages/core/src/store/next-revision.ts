/**
 * The revision a save gets in a store that forgets everything on `clear`:
 * one more than the current one, but at least the clock in milliseconds, so a
 * record saved after a `clear` gets a revision no earlier record had (unless
 * the earlier ones outran the clock at over a thousand saves a second).
 *
 * @param current - The revision the store holds (0: none).
 */
export function nextRevision(current: number): number {
  return Math.max(current + 1, Date.now());
}
