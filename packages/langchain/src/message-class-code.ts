/** The classes seen so far, by code (see {@link messageClassCode}). */
const classes: unknown[] = [];
const codes = new Map<unknown, number>();

/** The code no class gets: more than 255 message classes in one process (then a class never matches). */
export const UNKNOWN_CLASS_CODE = 255;

/**
 * A byte that stands for a message's class (its `constructor`) in this process: the same
 * class always gets the same code, so a conversion keeps one byte a message instead of a
 * reference, and a restored message is checked against it with {@link isMessageClass}.
 */
export function messageClassCode(messageClass: unknown): number {
  const known = codes.get(messageClass);
  if (known !== undefined) return known;
  if (classes.length >= UNKNOWN_CLASS_CODE) return UNKNOWN_CLASS_CODE;
  codes.set(messageClass, classes.length);
  classes.push(messageClass);
  return classes.length - 1;
}

/** Whether `messageClass` is the class `code` stands for (never for {@link UNKNOWN_CLASS_CODE}). */
export function isMessageClass(messageClass: unknown, code: number): boolean {
  return code !== UNKNOWN_CLASS_CODE && classes[code] === messageClass;
}
