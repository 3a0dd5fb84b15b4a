/** The wall clock in microseconds (exact in a double until the year 2255). */
function nowMicroseconds(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}

/**
 * The revision a save gets in a store that forgets everything on `clear`
 * (`fileStore`): above the current one and above `floor` (the last one this
 * process gave the session, which outlives a `clear`), and at least the wall
 * clock in microseconds — so a record saved after a `clear` gets a revision no
 * earlier record had, unless another process saved, cleared and saved again
 * within the same microsecond.
 *
 * @param current - The revision the store holds (0: none).
 * @param floor - The last revision this process issued for the session (0: none).
 */
export function nextRevision(current: number, floor = 0): number {
  return Math.max(current + 1, floor + 1, nowMicroseconds());
}
